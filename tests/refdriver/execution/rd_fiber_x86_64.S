/*
 * rd_fiber_x86_64.S: the work-item fibers' context switch (System V x86-64).
 *
 * rd_fiber_switch(void **save_sp, void *to_sp) pushes the callee-saved
 * registers on the current stack, stores the stack pointer in *save_sp,
 * loads to_sp and pops the registers saved there. MXCSR and the x87 control
 * word are not switched: every fiber of a thread runs kernels with the same
 * modes, and a built-in that changes them restores them before it returns.
 *
 * rd_fiber_start is where a new fiber begins (rd_fiber.c writes its first
 * frame): it calls r13(r12) and never comes back.
 */
    .text
    .globl rd_fiber_switch
    .hidden rd_fiber_switch
    .type rd_fiber_switch, @function
    .p2align 4
rd_fiber_switch:
    .cfi_startproc
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
    .cfi_endproc
    .size rd_fiber_switch, .-rd_fiber_switch

    .globl rd_fiber_start
    .hidden rd_fiber_start
    .type rd_fiber_start, @function
    .p2align 4
rd_fiber_start:
    .cfi_startproc
    .cfi_undefined rip
    movq %r12, %rdi
    callq *%r13
    ud2
    .cfi_endproc
    .size rd_fiber_start, .-rd_fiber_start

    .section .note.GNU-stack, "", @progbits
