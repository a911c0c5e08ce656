#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# The man pages (man/*.scd) against the programs they describe:
#
#   man/NAME.N.scd --scdoc--> NAME.N --mandoc -Tlint--> nothing to say
#         |
#         +-- OPTIONS     <-->  NAME --help        (both ways; the
#         |                     daemons, dard-exp and dard-sim)
#         +-- ENVIRONMENT  <--  $DARD_* in --help
#         +-- ## OBJECT   <-->  dardctl help       (objects, options and
#         |                                          object options)
#         +-- *word*      <-->  dardctl OBJECT help (usage words; the
#         |                                           section's synopsis)
#         +-- sections NAME ... SEE ALSO; *dard...*(N) references exist
#
# so that a page cannot drift from --help. Then it breaks copies of the
# pages on purpose and checks that each kind of drift is caught.
#
# Lint level: mandoc -W warning, the strictest level scdoc's output meets.
# scdoc 1.11 writes a .P after every .SH and blank source line, which
# mandoc reports as "skipping paragraph macro" warnings and drops
# (rendering is unchanged); those alone are filtered. -W style would add
# only "lower case character in document title" (the page names are
# lower case, as the commands) and lines over 80 bytes after scdoc's
# escapes, neither of which a reader sees.
# Needs scdoc and mandoc (scripts/install-deps), no privileges.

set -u
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
bin=${DARD_BIN:-$top/build/bin}
src=${DARD_MAN_SRC:-$top/man}
tmp=$(mktemp -d /tmp/dard-man.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
suite=man
source "$top/tests/lib.sh"

# check NAME PROBLEMS: passes when PROBLEMS is empty, else prints them.
check() {
	if [[ -z $2 ]]; then
		passed=$((passed + 1))
		echo "ok   $1"
	else
		failed=$((failed + 1))
		echo "FAIL $1:"
		sed 's/^/       /' <<<"$2"
	fi
}

# caught NAME PROBLEMS PATTERN: a deliberate drift must be reported.
caught() {
	if grep -qE -- "$3" <<<"$2"; then
		passed=$((passed + 1))
		echo "ok   $1"
	else
		failed=$((failed + 1))
		echo "FAIL $1: the check did not report /$3/; it said: ${2:-nothing}"
	fi
}

# section FILE TITLE: the lines of `# TITLE' up to the next `# '.
section() {
	awk -v t="# $2" '$0 == t { on = 1; next } /^# / { on = 0 } on' "$1"
}

# subsection FILE TITLE: the lines of `## TITLE' up to the next heading.
subsection() {
	awk -v t="## $2" '$0 == t { on = 1; next } /^##? / { on = 0 } on' "$1"
}

# help_opts: the options of a --help text on stdin, one a line: those of
# its option lines (indented at most 8 columns, so not a wrapped
# description) and of its Usage block.
help_opts() {
	awk '
	/^Usage:/ { usage = 1 }
	usage && /^$/ { usage = 0 }
	usage || (match($0, /^ +-/) && RLENGTH <= 9) {
		n = split($0, f, /  +/)
		for (i = 1; i <= n; i++) {
			if (!usage && f[i] !~ /^-/)
				continue
			m = split(f[i], w, /[ ,\[\]{}|]+/)
			for (j = 1; j <= m; j++)
				if (w[j] ~ /^--?[A-Za-z0-9][A-Za-z0-9-]*$/)
					print w[j]
		}
	}' | sort -u
}

# page_opts FILE: the options the terms of the page's OPTIONS list name.
page_opts() {
	section "$1" OPTIONS | grep '^\*-' |
		grep -oE '\*--?[A-Za-z0-9][A-Za-z0-9-]*\*' | tr -d '*' | sort -u
}

# opt_drift HELP PAGE: each option missing from the other side.
opt_drift() {
	comm -23 <(help_opts <<<"$1") <(page_opts "$2") |
		sed 's/^/in --help, not in the page'"'"'s OPTIONS: /'
	comm -13 <(help_opts <<<"$1") <(page_opts "$2") |
		sed 's/^/in the page'"'"'s OPTIONS, not in --help: /'
}

# env_drift HELP PAGE: $DARD_* variables --help names and ENVIRONMENT lacks.
env_drift() {
	comm -23 <(grep -oE '\$DARD_[A-Z_]+' <<<"$1" | tr -d '$' | sort -u) \
		<(section "$2" ENVIRONMENT | grep -oE '^\*[A-Z_]+\*' |
			tr -d '*' | sort -u) |
		sed 's/^/in --help, not in ENVIRONMENT: /'
}

# help_objects HELP: the objects of `dardctl help''s OBJECT := { ... }.
help_objects() {
	sed -n '/OBJECT :=/,/}/p' <<<"$1" | sed 's/.*OBJECT :=//' |
		tr -d '{}|' | xargs -n1 | sort -u
}

# obj_drift HELP PAGE: objects missing from COMMANDS, or only there.
obj_drift() {
	local page_objs
	page_objs=$(section "$2" COMMANDS | sed -n 's/^## //p' | sort -u)
	comm -23 <(help_objects "$1") <(echo "$page_objs") |
		sed 's/^/object in dardctl help, no "## OBJECT" in COMMANDS: /'
	comm -13 <(help_objects "$1") <(echo "$page_objs") |
		sed 's/^/"## OBJECT" in COMMANDS, not in dardctl help: /'
}

# usage_words HELP: the literal words of an object's usage lines (lower
# case; placeholders are upper case), from Usage: to a blank or Where:.
usage_words() {
	awk '/^Usage:/ { on = 1 } /^$/ || /^Where:/ { on = 0 } on' <<<"$1" |
		sed 's/^Usage://' | tr '[]{}|' '     ' | xargs -n1 |
		grep -E '^[a-z][a-z0-9-]*$' | grep -vx dardctl | sort -u
}

# word_drift OBJ HELP PAGE: usage words the object's section lacks in bold.
word_drift() {
	comm -23 <(usage_words "$2") \
		<(subsection "$3" "$1" | grep -oE '\*[^*]+\*' | tr -d '*' |
			xargs -n1 2>/dev/null | sort -u) |
		sed "s/.*/dardctl $1 help: \`&' is not in bold in \"## $1\"/"
}

# syn_drift OBJ HELP PAGE: words of the section's synopsis lines (those
# starting with *dardctl*) that the object's usage lines do not have.
syn_drift() {
	comm -13 <(usage_words "$2") \
		<(subsection "$3" "$1" | grep '^\*dardctl' |
			grep -oE '\*[^*]+\*' | tr -d '*' | xargs -n1 |
			grep -E '^[a-z][a-z0-9-]*$' | grep -vx dardctl | sort -u) |
		sed "s/.*/dardctl(8) \"## $1\" synopsis: \`&' is not in dardctl $1 help/"
}

# sections PAGE: the sections a page must have that it lacks.
sections() {
	local s want=(NAME SYNOPSIS DESCRIPTION "EXIT STATUS" "SEE ALSO")

	[[ $1 == *.5.scd ]] && want=(NAME SYNOPSIS DESCRIPTION FILES "SEE ALSO")
	[[ $1 == *.8.scd ]] && want+=(OPTIONS ENVIRONMENT FILES EXAMPLES)
	for s in "${want[@]}"; do
		grep -qx "# $s" "$1" || echo "no \"# $s\" section"
	done
}

# xrefs PAGE: dard pages it refers to, as *NAME*(N), that man/ lacks.
xrefs() {
	grep -oE '\*dard[a-z.-]*\*\([1-8]\)' "$1" | tr -d '*()' | sort -u |
		while read -r r; do
			n=${r%[1-8]} sec=${r#"$n"}
			[[ -f $src/$n.$sec.scd ]] || echo "refers to $n($sec), not in man/"
		done
}

# lint PAGE: what mandoc says beyond scdoc's paragraph-macro noise.
lint() {
	mandoc -Tlint -W warning "$1" 2>&1 |
		grep -vE 'WARNING: skipping paragraph macro: PP (empty|after SH|after SS)$'
}

for tool in scdoc mandoc; do
	if ! command -v $tool >/dev/null; then
		check "$tool installed" "$tool is missing: run scripts/install-deps"
		echo "man: $passed passed, $failed failed"
		exit 1
	fi
done

pages=(dardctl.8 dardd.8 dard-switchd.8 dard-controller.8 dard-exp.8 dard.conf.5)
for p in "${pages[@]}"; do
	ok "scdoc $p" 0 scdoc <"$src/$p.scd" && cp "$tmp/out" "$tmp/$p" &&
		check "mandoc -Tlint $p" "$(lint "$tmp/$p")"
done
for f in "$src"/*.scd; do
	check "$(basename "$f" .scd): its sections" "$(sections "$f")"
	check "$(basename "$f" .scd): its dard references exist" "$(xrefs "$f")"
done
# Every page in man/ is built and linted, listed above or not.
for f in "$src"/*.scd; do
	p=$(basename "$f" .scd)
	[[ " ${pages[*]} " == *" $p "* ]] && continue
	ok "scdoc $p" 0 scdoc <"$f" && cp "$tmp/out" "$tmp/$p" &&
		check "mandoc -Tlint $p" "$(lint "$tmp/$p")"
done

for prog in dardd dard-switchd dard-controller dard-exp; do
	page=$src/$prog.8.scd
	ok "$prog --help" 0 "$bin/$prog" --help || continue
	help=$out
	check "$prog: --help options = the page's OPTIONS" "$(opt_drift "$help" "$page")"
	check "$prog: --help's variables in ENVIRONMENT" "$(env_drift "$help" "$page")"
done
if [[ -f $src/dard-sim.1.scd ]]; then
	ok "dard-sim --help" 0 "$bin/dard-sim" --help
	check "dard-sim: --help options = the page's OPTIONS" \
		"$(opt_drift "$out" "$src/dard-sim.1.scd")"
fi

page=$src/dardctl.8.scd
ok "dardctl help" 0 "$bin/dardctl" help
help=$out
objs=$(help_objects "$help")
has "dardctl help lists objects" "$objs" '^topo$'
check "dardctl: objects = the page's COMMANDS" "$(obj_drift "$help" "$page")"
# The page's OPTIONS holds both kinds: those before OBJECT (Options:)
# and the object options after it (Object options ...:).
check "dardctl: Options = the page's OPTIONS" \
	"$(opt_drift "$(sed -n '/^Options:/,/^$/p; /^Object options/,/^$/p' <<<"$help")" "$page")"
check "dardctl: help's variables in ENVIRONMENT" "$(env_drift "$help" "$page")"
for obj in $objs; do
	ok "dardctl $obj help" 0 "$bin/dardctl" "$obj" help || continue
	has "dardctl $obj help has usage words" "$(usage_words "$out")" "^$obj$"
	check "dardctl $obj: every usage word in the page" \
		"$(word_drift "$obj" "$out" "$page")"
	check "dardctl $obj: every synopsis word in its help" \
		"$(syn_drift "$obj" "$out" "$page")"
done

# The checks can fail: each kind of drift, made on purpose in a copy.
mkdir "$tmp/broken"
cp "$src"/*.scd "$tmp/broken/"
b=$tmp/broken
"$bin/dard-switchd" --help >"$tmp/help.switchd"
sed -i '/^\*-w\*, \*--window\*/d' "$b/dard-switchd.8.scd"
caught "a page without dard-switchd's --window is caught" \
	"$(opt_drift "$(cat "$tmp/help.switchd")" "$b/dard-switchd.8.scd")" \
	'not in the page.*--window'
caught "... and without -w" \
	"$(opt_drift "$(cat "$tmp/help.switchd")" "$b/dard-switchd.8.scd")" \
	'not in the page.*: -w$'
"$bin/dardd" --help >"$tmp/help.dardd"
sed -i 's/^\*-q\*, \*--quiet\*$/*-q*, *--quiet*, *--silent*/' "$b/dardd.8.scd"
caught "a page option --help lacks is caught" \
	"$(opt_drift "$(cat "$tmp/help.dardd")" "$b/dardd.8.scd")" \
	'not in --help: --silent'
sed -i '/^\*DARD_PIN_ROOT\*$/d' "$b/dardd.8.scd"
caught "a variable missing from ENVIRONMENT is caught" \
	"$(env_drift "$(cat "$tmp/help.dardd")" "$b/dardd.8.scd")" \
	'DARD_PIN_ROOT'
"$bin/dardctl" help >"$tmp/help.ctl"
sed -i '/^## traffic$/d' "$b/dardctl.8.scd"
caught "an object missing from COMMANDS is caught" \
	"$(obj_drift "$(cat "$tmp/help.ctl")" "$b/dardctl.8.scd")" 'traffic'
"$bin/dardctl" key help >"$tmp/help.key"
sed -i 's/\[\*force\*\]/[force]/' "$b/dardctl.8.scd"
sed -i 's/unless \*force\* is given/unless force is given/' "$b/dardctl.8.scd"
caught "a dardctl command word missing from its section is caught" \
	"$(word_drift key "$(cat "$tmp/help.key")" "$b/dardctl.8.scd")" \
	'`force'"'"
"$bin/dardctl" topo help >"$tmp/help.topo"
sed -i 's/\[\*noaliases\*\] \[\*output\*/[*noaliases*] [*nosuch*] [*output*/' "$b/dardctl.8.scd"
caught "a synopsis word dardctl no longer has is caught" \
	"$(syn_drift topo "$(cat "$tmp/help.topo")" "$b/dardctl.8.scd")" \
	'`nosuch'"'"
sed -i '/^# EXIT STATUS$/d' "$b/dardd.8.scd"
caught "a page without EXIT STATUS is caught" "$(sections "$b/dardd.8.scd")" \
	'EXIT STATUS'
sed -i 's/\*dard-switchd\*(8)/*dard-switchd*(7)/' "$b/dardd.8.scd"
caught "a reference to a page that does not exist is caught" \
	"$(src=$b xrefs "$b/dardd.8.scd")" 'dard-switchd\(7\)'
printf '.TH X 8\n.SH NAME\nx\n.Bl\n' >"$b/bad.8"
caught "mandoc's complaints are not filtered away" "$(lint "$b/bad.8")" \
	'bad\.8'

summary
