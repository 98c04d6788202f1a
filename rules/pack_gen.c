/*
 * Build step: the built-in rule pack (rules/default.yml) as libyaml's document tree, serialised, so
 * that `snipgate check` does not scan and parse 96 KB of YAML at every start (it was 57% of the
 * instructions of a one-file check). The loader rebuilds the same yaml_document_t from these bytes
 * (loader.c, loader__doc_from_blob) and reads it exactly as it reads a parsed pack; the YAML text
 * stays embedded too, and is parsed instead whenever the bytes do not check out.
 *
 * Format (little-endian): "SGPACK1\n", the node count N (u32), then the nodes in document order
 * (their ids 1..N), each: type (u8: 1 scalar, 2 sequence, 3 mapping), start line and column
 * (u32 each, 0-based as libyaml keeps them), then for a scalar its length (u32) and bytes, for a
 * sequence its item count (u32) and item ids (u32 each), for a mapping its pair count (u32) and
 * key and value ids (u32 each).
 *
 * Usage: sg_pack_gen IN.yml OUT.bin
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

static void put32(FILE *f, uint32_t v)
{
    unsigned char b[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16), (unsigned char)(v >> 24)};
    fwrite(b, 1, 4, f);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: sg_pack_gen IN.yml OUT.bin\n");
        return 2;
    }
    FILE *in = fopen(argv[1], "rb");
    if (!in) {
        perror(argv[1]);
        return 1;
    }
    yaml_parser_t p;
    yaml_document_t doc;
    if (!yaml_parser_initialize(&p)) {
        fprintf(stderr, "sg_pack_gen: out of memory\n");
        return 1;
    }
    yaml_parser_set_input_file(&p, in);
    if (!yaml_parser_load(&p, &doc) || !yaml_document_get_root_node(&doc)) {
        fprintf(stderr, "sg_pack_gen: %s:%lu:%lu: %s\n", argv[1], (unsigned long)p.problem_mark.line + 1,
                (unsigned long)p.problem_mark.column + 1, p.problem ? p.problem : "no document");
        return 1;
    }
    fclose(in);
    char *tmp = malloc(strlen(argv[2]) + 5);
    if (!tmp)
        return 1;
    sprintf(tmp, "%s.tmp", argv[2]);
    FILE *out = fopen(tmp, "wb");
    if (!out) {
        perror(tmp);
        return 1;
    }
    uint32_t n = (uint32_t)(doc.nodes.top - doc.nodes.start);
    fwrite("SGPACK1\n", 1, 8, out);
    put32(out, n);
    for (uint32_t i = 0; i < n; i++) {
        const yaml_node_t *node = doc.nodes.start + i;
        unsigned char t = node->type == YAML_SCALAR_NODE ? 1 : node->type == YAML_SEQUENCE_NODE ? 2 : 3;
        fputc(t, out);
        put32(out, (uint32_t)node->start_mark.line);
        put32(out, (uint32_t)node->start_mark.column);
        if (t == 1) {
            put32(out, (uint32_t)node->data.scalar.length);
            fwrite(node->data.scalar.value, 1, node->data.scalar.length, out);
        } else if (t == 2) {
            put32(out, (uint32_t)(node->data.sequence.items.top - node->data.sequence.items.start));
            for (yaml_node_item_t *it = node->data.sequence.items.start; it < node->data.sequence.items.top; it++)
                put32(out, (uint32_t)*it);
        } else {
            put32(out, (uint32_t)(node->data.mapping.pairs.top - node->data.mapping.pairs.start));
            for (yaml_node_pair_t *pr = node->data.mapping.pairs.start; pr < node->data.mapping.pairs.top; pr++) {
                put32(out, (uint32_t)pr->key);
                put32(out, (uint32_t)pr->value);
            }
        }
    }
    if (fclose(out) || rename(tmp, argv[2])) {
        perror(argv[2]);
        return 1;
    }
    free(tmp);
    yaml_document_delete(&doc);
    yaml_parser_delete(&p);
    return 0;
}
