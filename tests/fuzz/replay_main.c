/*
 * Corpus replay: feeds every file of the given corpus folders to a fuzz
 * target's LLVMFuzzerTestOneInput, so the regular (gcc) build and CI run the
 * corpus as a regression test without clang or libFuzzer. Fails when a
 * folder holds no input, so a lost corpus cannot pass silently.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: cannot open %s\n", path);
        return -1;
    }
    size_t cap = 4096, size = 0;
    uint8_t *data = malloc(cap);
    size_t n;
    while (data && (n = fread(data + size, 1, cap - size, f)) > 0) {
        size += n;
        if (size == cap) {
            uint8_t *grown = realloc(data, cap * 2);
            if (!grown) {
                free(data);
                data = NULL;
                break;
            }
            data = grown;
            cap *= 2;
        }
    }
    fclose(f);
    if (!data) {
        fprintf(stderr, "replay: out of memory reading %s\n", path);
        return -1;
    }
    /* An exact-size copy, so ASan sees reads past the input's end. */
    uint8_t *exact = malloc(size ? size : 1);
    if (exact)
        memcpy(exact, data, size);
    free(data);
    if (!exact)
        return -1;
    LLVMFuzzerTestOneInput(exact, size);
    free(exact);
    return 0;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s CORPUS_DIR...\n", argv[0]);
        return 2;
    }
    for (int d = 1; d < argc; d++) {
        struct dirent **entries;
        int count = scandir(argv[d], &entries, NULL, by_name);
        if (count < 0) {
            fprintf(stderr, "replay: cannot read %s\n", argv[d]);
            return 1;
        }
        int replayed = 0;
        for (int i = 0; i < count; i++) {
            if (entries[i]->d_name[0] != '.') {
                char path[4096];
                snprintf(path, sizeof path, "%s/%s", argv[d], entries[i]->d_name);
                if (replay_file(path) != 0)
                    return 1;
                replayed++;
            }
            free(entries[i]);
        }
        free(entries);
        printf("replay: %d inputs of %s passed\n", replayed, argv[d]);
        if (replayed == 0)
            return 1;
    }
    return 0;
}
