package policy

import "strings"

// shortOptVal returns the value of the first of the short options want
// in vals, read as getopt does with values the letters that take one
// (attached, -D/lib.so, or the next word, also at the end of a cluster,
// -qD lib.so), or "". A value computed at run time is returned as its
// text, which is never "".
func shortOptVal(vals []string, values, want string) string {
	for _, v := range shortOptVals(vals, values, want) {
		if v != "" {
			return v
		}
	}
	return ""
}

// shortOptVals returns the values of every one of the short options want
// in vals, in order, read as shortOptVal reads them: "" for one that ends
// the words.
func shortOptVals(vals []string, values, want string) []string {
	var out []string
	for i := 0; i < len(vals); i++ {
		v := vals[i]
		if v == "--" {
			break
		}
		if len(v) < 2 || v[0] != '-' || v[1] == '-' {
			continue
		}
		for j := 1; j < len(v); j++ {
			if strings.IndexByte(values, v[j]) < 0 {
				continue
			}
			val := v[j+1:]
			if val == "" && i+1 < len(vals) {
				i++
				val = vals[i]
			}
			if strings.IndexByte(want, v[j]) >= 0 {
				out = append(out, val)
			}
			break
		}
	}
	return out
}
