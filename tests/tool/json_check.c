/*
 * json_check: checks values in a JSON file (what `md2 info --json` printed),
 * for the md2 command's test tables. Reads it with cJSON (libcjson-dev).
 * Test-only.
 *
 *   json_check FILE CHECK...
 *
 * A PATH is keys and array indexes separated by '/' ("frames/0/name"; empty:
 * the whole document). Each CHECK is one of
 *   PATH=VALUE        the value there: a string as it is, a number equal to
 *                     VALUE read as a number, true, false or null
 *   len:PATH=N        an array's or object's number of members
 *   type:PATH=TYPE    NULL, NUMBER, STRING, BOOLEAN, ARRAY or OBJECT
 *   match:PATH=RE     the string (or the number, as %.17g writes it) matches
 *                     the POSIX extended regular expression RE
 *   sum:PATH=A+B...   the whole number at PATH is the sum of those at A, B...
 * Exit 0 when the file is JSON and every check holds, 1 otherwise (saying
 * which), 2 for a bad command line.
 *
 * SPDX-License-Identifier: MIT
 */
#include <cjson/cJSON.h>

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

static void failed(const char *check, const char *what)
{
    printf("json_check: %s: %s\n", check, what);
    failures++;
}

/* The item at path (from '/'-separated keys and indexes), or NULL. */
static const cJSON *find(const cJSON *root, const char *path)
{
    const cJSON *item = root;
    char key[512];
    while (*path && item) {
        size_t n = strcspn(path, "/");
        char *end;
        long index;
        snprintf(key, sizeof key, "%.*s", (int)n, path);
        index = strtol(key, &end, 10);
        if (cJSON_IsArray(item) && *key && !*end)
            item = cJSON_GetArrayItem(item, (int)index);
        else if (cJSON_IsObject(item))
            item = cJSON_GetObjectItemCaseSensitive(item, key);
        else
            item = NULL;
        path += n + (path[n] == '/');
    }
    return item;
}

static const char *type_name(const cJSON *item)
{
    if (cJSON_IsNull(item))
        return "NULL";
    if (cJSON_IsNumber(item))
        return "NUMBER";
    if (cJSON_IsString(item))
        return "STRING";
    if (cJSON_IsBool(item))
        return "BOOLEAN";
    if (cJSON_IsArray(item))
        return "ARRAY";
    return "OBJECT";
}

/* The value as text (into buf): a string as it is, a number as %.17g. */
static const char *as_text(const cJSON *item, char *buf, size_t size)
{
    if (cJSON_IsString(item))
        return item->valuestring;
    if (cJSON_IsNumber(item))
        snprintf(buf, size, "%.17g", item->valuedouble);
    else if (cJSON_IsBool(item))
        snprintf(buf, size, "%s", cJSON_IsTrue(item) ? "true" : "false");
    else if (cJSON_IsNull(item))
        snprintf(buf, size, "null");
    else
        snprintf(buf, size, "(%s)", type_name(item));
    return buf;
}

static int whole_number(const cJSON *item, double *out)
{
    if (!item || !cJSON_IsNumber(item) || item->valuedouble != (double)(long long)item->valuedouble)
        return 0;
    *out = item->valuedouble;
    return 1;
}

static void check_one(const cJSON *root, const char *check)
{
    const char *eq = strchr(check, '='), *colon = strchr(check, ':');
    char op[8] = "", path[512], text[64], msg[1024];
    const char *expected;
    const cJSON *item;
    if (!eq) {
        failed(check, "expected PATH=VALUE, or OP:PATH=VALUE");
        return;
    }
    if (colon && colon < eq && (size_t)(colon - check) < sizeof op) {
        snprintf(op, sizeof op, "%.*s", (int)(colon - check), check);
        check = colon + 1;
    }
    snprintf(path, sizeof path, "%.*s", (int)(eq - check), check);
    expected = eq + 1;
    item = find(root, path);
    if (!item) {
        failed(path, "not in the document");
        return;
    }
    if (strcmp(op, "len") == 0) {
        int n = cJSON_GetArraySize(item);
        if (!(cJSON_IsArray(item) || cJSON_IsObject(item)) || n != atoi(expected)) {
            snprintf(msg, sizeof msg, "%d members (%s), expected %s", n, type_name(item), expected);
            failed(path, msg);
        }
    } else if (strcmp(op, "type") == 0) {
        if (strcmp(type_name(item), expected) != 0) {
            snprintf(msg, sizeof msg, "a %s, expected %s", type_name(item), expected);
            failed(path, msg);
        }
    } else if (strcmp(op, "match") == 0) {
        regex_t re;
        const char *value = as_text(item, text, sizeof text);
        if (regcomp(&re, expected, REG_EXTENDED | REG_NOSUB) != 0) {
            failed(expected, "not a valid regular expression");
            return;
        }
        if (regexec(&re, value, 0, NULL, 0) != 0) {
            snprintf(msg, sizeof msg, "\"%.300s\" does not match %s", value, expected);
            failed(path, msg);
        }
        regfree(&re);
    } else if (strcmp(op, "sum") == 0) {
        double total, sum = 0.0, v;
        char term[512];
        const char *p = expected;
        if (!whole_number(item, &total)) {
            failed(path, "not a whole number");
            return;
        }
        while (*p) {
            size_t n = strcspn(p, "+");
            snprintf(term, sizeof term, "%.*s", (int)n, p);
            if (!whole_number(find(root, term), &v)) {
                failed(term, "not a whole number in the document");
                return;
            }
            sum += v;
            p += n + (p[n] == '+');
        }
        if (total != sum) {
            snprintf(msg, sizeof msg, "%.17g, but %s is %.17g", total, expected, sum);
            failed(path, msg);
        }
    } else if (op[0]) {
        failed(check, "unknown check (len, type, match, sum)");
    } else {
        int ok;
        if (cJSON_IsNumber(item)) {
            char *end;
            double want = strtod(expected, &end);
            ok = *expected && !*end && want == item->valuedouble;
        } else {
            ok = strcmp(as_text(item, text, sizeof text), expected) == 0 &&
                 (cJSON_IsString(item) || cJSON_IsBool(item) || cJSON_IsNull(item));
        }
        if (!ok) {
            snprintf(msg, sizeof msg, "\"%.300s\", expected \"%s\"", as_text(item, text, sizeof text),
                     expected);
            failed(path, msg);
        }
    }
}

int main(int argc, char **argv)
{
    FILE *f;
    char *data = NULL;
    size_t size = 0, cap = 0, got;
    cJSON *root;
    int i;
    if (argc < 3) {
        fprintf(stderr, "usage: json_check FILE CHECK...\n");
        return 2;
    }
    f = fopen(argv[1], "rb");
    if (!f) {
        printf("json_check: cannot open %s\n", argv[1]);
        return 1;
    }
    do {
        if (size + 4096 + 1 > cap) {
            char *p;
            cap = cap ? cap * 2 : 65536;
            p = (char *)realloc(data, cap);
            if (!p) {
                free(data);
                fclose(f);
                printf("json_check: out of memory\n");
                return 1;
            }
            data = p;
        }
        got = fread(data + size, 1, cap - size - 1, f);
        size += got;
    } while (got > 0);
    fclose(f);
    data[size] = '\0';
    root = cJSON_ParseWithLength(data, size);
    if (!root) {
        printf("json_check: %s is not valid JSON (near byte %ld)\n", argv[1],
               cJSON_GetErrorPtr() ? (long)(cJSON_GetErrorPtr() - data) : -1L);
        free(data);
        return 1;
    }
    for (i = 2; i < argc; i++)
        check_one(root, argv[i]);
    if (failures == 0)
        printf("json_check: %s: %d checks hold\n", argv[1], argc - 2);
    cJSON_Delete(root);
    free(data);
    return failures ? 1 : 0;
}
