/* A structural check of an ELF shared object's headers and segments. */
#include "rd_elf.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <string.h>

/* The machine this driver was built for, read from its own ELF header. */
static int own_machine(Elf64_Half *machine)
{
    Dl_info info;
    if (!dladdr((void *)rd_elf_problem, &info) || !info.dli_fbase)
        return 0;
    const ElfW(Ehdr) *self = info.dli_fbase;
    *machine = self->e_machine;
    return 1;
}

static int range_within(size_t offset, size_t length, size_t size)
{
    return offset <= size && length <= size - offset;
}

/* The bytes may sit at any alignment (the caller's buffer): headers are
 * copied out before they are read. */
const char *rd_elf_problem(const void *bytes, size_t size)
{
    ElfW(Ehdr) eh;
    if (size < sizeof eh)
        return "not an ELF object (no ELF magic)";
    memcpy(&eh, bytes, sizeof eh);
    if (memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0)
        return "not an ELF object (no ELF magic)";
    if (eh.e_ident[EI_CLASS] != (sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32))
        return "ELF class (32/64-bit) does not match this CPU";
    if (eh.e_type != ET_DYN)
        return "not an ELF shared object (e_type is not ET_DYN)";
    Elf64_Half machine;
    if (own_machine(&machine) && eh.e_machine != machine)
        return "ELF object built for another machine";
    if (eh.e_phentsize != sizeof(ElfW(Phdr)) || eh.e_phnum == 0 ||
        !range_within(eh.e_phoff, (size_t)eh.e_phnum * eh.e_phentsize, size))
        return "ELF program headers missing or beyond the end of the object (truncated?)";
    for (size_t i = 0; i < eh.e_phnum; i++) {
        ElfW(Phdr) ph;
        memcpy(&ph, (const char *)bytes + eh.e_phoff + i * sizeof ph, sizeof ph);
        if (ph.p_type != PT_LOAD && ph.p_type != PT_DYNAMIC)
            continue;
        if (!range_within(ph.p_offset, ph.p_filesz, size))
            return "an ELF segment extends beyond the end of the object (truncated?)";
    }
    return NULL;
}
