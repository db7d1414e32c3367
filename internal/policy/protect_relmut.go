package policy

import (
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"
)

// Relative names a command changes are checked, once the whole input is
// read, against every directory a cd in it can make current, as their
// absolute spellings are where the command names them: cd ~/.ssh && echo
// KEY >> authorized_keys is echo KEY >> ~/.ssh/authorized_keys, cd /etc;
// sed -i … sudoers edits /etc/sudoers, cd /dev && chmod 666 sda re-permits
// a disk, cd /usr/sbin && cp /tmp/x sshd replaces a system program.

// What a relative name is checked for, by how the command changes it.
const (
	mutSensitive uint8 = 1 << iota // sensitivePath: a file whose change grants or runs something
	mutNode                        // deviceNode: the node removed, replaced or re-permitted
	mutProgram                     // systemProgramFile: the file replaced by what is written
	mutTree                        // criticalPath: the tree removed (rm -r)
)

// addRelMutate remembers a relative name a command changes, with what to
// check it for. Past maxRelWords names, relMore says some went unchecked.
func (ps *pathState) addRelMutate(w string, what uint8) {
	if w == "" || strings.HasPrefix(w, "/") || strings.HasPrefix(w, "-") || strings.HasPrefix(w, "~") {
		return
	}
	if ps.relMutates == nil {
		ps.relMutates = map[string]uint8{}
	}
	if old, ok := ps.relMutates[w]; ok || len(ps.relMutates) < maxRelWords {
		ps.relMutates[w] = old | what
	} else {
		ps.relMore = true
	}
}

// noteRelMutates records the relative operands of a file-changing
// program (fileWriters): every operand may be a sensitive file it
// changes, as protectedArgs reads their absolute spellings; the node
// changers' operands and the replacers' destination may be device nodes;
// the destination of a program that writes a file whole may be a system
// program.
func (e *eval) noteRelMutates(name string, args []arg) {
	ps := e.pathsFor()
	if ps == nil || !fileWriters[name] {
		return
	}
	first, last := -1, -1
	for i, a := range args {
		if a.known && a.val != "" && !strings.HasPrefix(a.val, "-") {
			last = i
			if first < 0 {
				first = i
			}
		}
		if strings.HasPrefix(a.val, "--reference") {
			first = len(args) // chmod --reference=FILE takes no mode operand
		}
	}
	for i, a := range args {
		if !a.known || a.val == "" || strings.HasPrefix(a.val, "-") || strings.Contains(a.val, "=") {
			continue
		}
		if i == first && modeFirst[name] {
			continue // the mode or owner, not a file
		}
		what := mutSensitive
		if nodeChangers[name] || nodeReplacers[name] && i == last {
			what |= mutNode
		}
		if i == last && wholeWriters[name] {
			what |= mutProgram
		}
		ps.addRelMutate(a.val, what)
	}
}

// modeFirst take a mode or owner before their files.
var modeFirst = set(`chmod chown chgrp`)

// wholeWriters write their destination whole, replacing what was there.
var wholeWriters = set(`cp mv install ln rsync tee`)

// relMutateVerdict checks the relative names commands change against
// every directory a cd in the input can make current.
func (e *eval) relMutateVerdict() {
	ps := e.paths
	if ps == nil || len(ps.relMutates) == 0 {
		return
	}
	cwds, unknown := e.cwds()
	words := slices.Sorted(maps.Keys(ps.relMutates))
	// A tree removed is denied, whatever else is found first.
	for _, w := range words {
		if ps.relMutates[w]&mutTree == 0 {
			continue
		}
		for _, d := range cwds {
			if p := path.Join(d, w); criticalPath(p) {
				e.deny(fmt.Sprintf("rm: recursive removal of %s (%s after cd %s)", p, w, d))
				return
			}
		}
	}
	for _, w := range words {
		what := ps.relMutates[w]
		for _, d := range cwds {
			p := path.Join(d, w)
			switch {
			case what&mutSensitive != 0 && sensitivePath(strings.ToLower(p)):
				e.note(TierDestructive, false, "modifies sensitive file %s (%s after cd %s)", p, w, d)
			case what&mutNode != 0 && deviceNode(p):
				e.note(TierDestructive, false, "removes, replaces or re-permits device node %s (%s after cd %s)", p, w, d)
			case what&mutProgram != 0 && systemProgramFile(p) != "":
				e.note(TierDestructive, false, "%s%s (%s after cd %s)", systemProgramFile(p), p, w, d)
			default:
				continue
			}
			return
		}
		if (unknown || ps.initial == "") && what&mutSensitive != 0 && sensitiveName(w) {
			e.note(TierDestructive, false, "modifies %s in a directory known only at run time, which may be the sensitive file of that name", w)
			return
		}
	}
}

// sensitiveName reports whether w, a relative name in a directory not
// known, ends the way a sensitive file's path does whatever the
// directory: a login's key file or start-up file (authorized_keys,
// .bashrc), or a name only the system's files have (sudoers, shadow,
// ld.so.preload). Ordinary names some sensitive file also has (hosts,
// config, profile) are left out.
func sensitiveName(w string) bool {
	slashed := "/" + path.Clean(strings.ToLower(w))
	for _, s := range sensitiveSuffix {
		if strings.HasSuffix(slashed, s) || strings.HasPrefix(path.Base(s), ".") && path.Base(s) == path.Base(slashed) {
			return true
		}
	}
	switch path.Base(slashed) {
	case "authorized_keys", "authorized_keys2", "sudoers", "shadow", "gshadow", "ld.so.preload", "doas.conf":
		return true
	}
	return false
}
