/* bad.cl: a program with a compile error, for the build log. */
__kernel void broken(__global int *out)
{
    out[get_global_id(0)] = undeclared_variable;
}
