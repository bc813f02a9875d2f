/*
 * The md2 command's subcommands, which main.c dispatches to: argv[0] is
 * the subcommand's name. Each returns an exit status of tool.h (TOOL_OK,
 * TOOL_FAILED, TOOL_USAGE), prints its help for -h/--help (exit 0), and
 * writes its errors to stderr as "md2 NAME: ...".
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef MD2_TOOL_COMMANDS_H
#define MD2_TOOL_COMMANDS_H

int tool_info(int argc, char **argv);
int tool_validate(int argc, char **argv);
int tool_export(int argc, char **argv);
int tool_render(int argc, char **argv);
int tool_import(int argc, char **argv);
int tool_simplify(int argc, char **argv);

#endif /* MD2_TOOL_COMMANDS_H */
