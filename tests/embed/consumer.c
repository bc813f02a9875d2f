/*
 * A program of another project that uses libmd2 (embedding tests).
 * Exit 0 when the library links and behaves, 1 otherwise.
 *
 * SPDX-License-Identifier: MIT
 */
#include <md2/md2.h>

#include <stdio.h>
#include <string.h>

int main(void)
{
    static const unsigned char bytes[4] = { 'I', 'D', 'P', '2' };
    char expected[32];
    const char *version = md2_version_string();
    static md2_model sentinel;
    md2_model *model = &sentinel; /* md2_parse() must reset it to NULL */
    md2_result r;

    snprintf(expected, sizeof expected, "%d.%d.%d", MD2_VERSION_MAJOR, MD2_VERSION_MINOR,
             MD2_VERSION_PATCH);
    if (version == NULL || strcmp(version, expected) != 0) {
        fprintf(stderr, "consumer: md2_version_string() is \"%s\", header says %s\n",
                version ? version : "(null)", expected);
        return 1;
    }
    r = md2_parse(bytes, sizeof bytes, NULL, &model);
    if (r != MD2_ERR_TRUNCATED_HEADER || model != NULL) {
        fprintf(stderr, "consumer: md2_parse(4 bytes) gave %d (%s)%s\n", (int)r,
                md2_result_string(r), model ? ", model not NULL" : "");
        return 1;
    }
    printf("consumer (C): libmd2 %s ok\n", version);
    return 0;
}
