#!/bin/sh
# Generate the snipgate(1) man page from the binary's own help text: `snipgate --help` and
# `snipgate help VERB` for every verb, so the page never drifts from the options.
# Usage: make_man.sh SNIPGATE_BINARY VERSION > snipgate.1
set -eu
SG=$1
VERSION=$2
# roff: a backslash is \e; a line starting with . or ' would be a request
esc() { sed -e 's/\\/\\e/g' -e "s/^\\([.']\\)/\\\\\\&\\1/"; }
printf '.TH SNIPGATE 1 "" "snipgate %s" "User Commands"\n' "$VERSION"
printf '.SH NAME\nsnipgate \\- a safety gate for generated Python code\n'
printf '.SH SYNOPSIS\n.B snipgate\n\\fICOMMAND\\fR [\\fIOPTIONS\\fR]\n'
printf '.SH DESCRIPTION\n.nf\n'
"$SG" --help | esc
printf '.fi\n'
for verb in check rules run eval; do
    printf '.SH "SNIPGATE %s"\n.nf\n' "$(echo "$verb" | tr a-z A-Z)"
    "$SG" help "$verb" | esc
    printf '.fi\n'
done
printf '.SH FILES\n.TP\n.I .snipgate.yml\nthe policy file, looked for from the current directory upwards (see \\fBcheck \\-\\-config\\fR)\n'
printf '.SH "EXIT STATUS"\n0 pass, 1 blocked, 2 bad usage, unreadable input or nothing checked, 3 internal error (never a pass).\n'
