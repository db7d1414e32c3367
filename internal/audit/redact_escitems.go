package audit

import "strings"

// Argv lists one quoting level down: ssh h "python3 -c
// 'subprocess.run([\"sshpass\", \"-p\", \"…\"])'", bash -c "…[\"mysql\",
// \"-p…\"]…". The shell removes the backslashes before the script reads
// the list, so an item quoted \"…\" is an item as "…" is: an option item's
// value is the next item, or the rest of the item for an attached one.

// escapedItem redacts the value of the option item s[i:j], quoted \"…\"
// in a list, by the current program's rules or the option's name, and
// returns where scanning resumes, or 0 when it is no such item.
func (r *redactor) escapedItem(i, j int) int {
	s := r.s
	if i < 2 || s[i-2:i] != `\"` || s[i] != '-' || !strings.HasPrefix(s[j:], `\"`) {
		return 0
	}
	k := j + 2 // past the item's closing \"
	w := s[i:j]
	how, ok := whole, false
	if p := r.prog; p != nil {
		for _, o := range p.opts {
			if o.sub != "" && !r.hasSub(o.sub) {
				continue
			}
			switch {
			case o.name == w && !o.attachedOnly:
				how, ok = o.split, true
			case len(o.name) == 2 && len(w) > 2 && !p.noAttach && strings.HasPrefix(w, o.name) || o.attachedOnly && len(w) > len(o.name) && strings.HasPrefix(w, o.name):
				// [\"mysql\", \"-p…\"]: the value is the item's rest.
				end := strings.Index(s[i:min(len(s), i+maxValueLook)], `\"`)
				if end < 0 {
					return 0
				}
				return max(r.splitValue(i+len(o.name), i+end, o.split), k)
			}
			if ok {
				break
			}
		}
	}
	if !ok && (strings.HasPrefix(w, "--no-") || secretKey(w) == keyNone && !flagSecretName(w)) {
		return 0
	}
	v := skipBlanks(s, k)
	switch {
	case v < len(s) && s[v] == ',':
		v = skipBlanks(s, v+1)
	case strings.HasPrefix(s[v:], "<< "):
		v = skipBlanks(s, v+2) // Ruby's a << \"-p\" << \"…\"
	default:
		return 0
	}
	if !strings.HasPrefix(s[v:], `\"`) {
		return 0
	}
	v += 2
	end := strings.Index(s[v:min(len(s), v+maxValueLook)], `\"`)
	if end <= 0 {
		return 0
	}
	return max(r.splitValue(v, v+end, how), k)
}

// maxValueLook bounds how far an escaped item's close is looked for.
const maxValueLook = 512

// escapedQuoted reports whether the word s[i:j] is quoted \"…\" whole: an
// item one quoting level down, which may name the program of its list.
func escapedQuoted(s string, i, j int) bool {
	return i >= 2 && s[i-2:i] == `\"` && strings.HasPrefix(s[j:], `\"`)
}
