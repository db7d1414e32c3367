package audit

import "strings"

// Kubernetes Secrets: every value under a Secret's data (base64) or
// stringData (plain) is a credential whatever its key is called
// (config, url, .dockerconfigjson), so a key-name rule keeps them. A
// data: or stringData: key is read as a Secret's when the YAML document
// or JSON text it sits in says kind: Secret, before or after it
// (kubectl get -o yaml writes data before kind), or patches a secret
// (kubectl patch secret x -p '{"data":…}').

// kubeDoc caches what the last document looked at holds, so each
// document is searched once however many data keys it has.
type kubeDoc struct {
	from, to int
	secret   bool
}

// kubeData redacts the values of the data or stringData key s[i:j] of
// a Secret and returns where the pass resumes, or 0.
func (r *redactor) kubeData(i, j int) int {
	s := r.s
	k := j
	if k < len(s) && (s[k] == '"' || s[k] == '\'') {
		k++
	} else if strings.HasPrefix(s[k:], `\"`) {
		k += 2
	}
	k = skipBlanks(s, k)
	if k >= len(s) || s[k] != ':' {
		return 0
	}
	k = skipBlanks(s, k+1)
	block := k >= len(s) || s[k] == '\n' || s[k] == '\r' || s[k] == '#'
	if !block && s[k] != '{' || !r.secretDoc(i) {
		return 0
	}
	if !block {
		return r.kubeFlow(k + 1)
	}
	if !yamlKeyAt(s, i) {
		return 0
	}
	nl := len(s)
	if e := strings.IndexByte(s[k:], '\n'); e >= 0 {
		nl = k + e
	}
	return max(r.kubeBlock(nl, i-strings.LastIndexByte(s[:i], '\n')-1), j)
}

// secretDoc reports whether the document holding i is a Secret's: the
// text between the "---" lines around it names kind Secret or patches
// a secret.
func (r *redactor) secretDoc(i int) bool {
	if d := r.kube; i >= d.from && i < d.to {
		return d.secret
	}
	s := r.s
	from := strings.LastIndex(s[:i], "\n---") + 1
	to := len(s)
	if e := strings.Index(s[i:], "\n---"); e >= 0 {
		to = i + e
	}
	r.kube = kubeDoc{from: from, to: to, secret: kindSecret(s[from:to])}
	return r.kube.secret
}

// kindSecret reports whether doc says kind: Secret (in YAML or JSON, any
// quoting) or patches a secret.
func kindSecret(doc string) bool {
	// Each of the two words is searched for once past each of its
	// places, so the scan stays linear in the document.
	n, p := strings.Index(doc, "kind"), strings.Index(doc, "patch")
	for n >= 0 || p >= 0 {
		if p >= 0 && (n < 0 || p < n) {
			k := p + len("patch")
			if patchesSecret(doc[k:min(len(doc), k+64)]) {
				return true
			}
			p = nextIndex(doc, k, "patch")
			continue
		}
		v := n + len("kind")
		n = nextIndex(doc, v, "kind")
		for v < len(doc) && (doc[v] == '"' || doc[v] == '\'' || doc[v] == '\\' || doc[v] == ' ' || doc[v] == '\t') {
			v++
		}
		if v == len(doc) || doc[v] != ':' {
			continue
		}
		for v++; v < len(doc) && (doc[v] == '"' || doc[v] == '\'' || doc[v] == '\\' || doc[v] == ' ' || doc[v] == '\t'); v++ {
		}
		if strings.HasPrefix(doc[v:], "Secret") && (v+6 == len(doc) || !wordByte[doc[v+6]]) {
			return true
		}
	}
	return false
}

// nextIndex is the index of word in s at or after k, or -1.
func nextIndex(s string, k int, word string) int {
	if e := strings.Index(s[k:], word); e >= 0 {
		return k + e
	}
	return -1
}

// patchesSecret reports whether one of the first words after a patch
// names a secret (kubectl patch secret x, oc patch -n ns secrets/x).
func patchesSecret(rest string) bool {
	for n, f := range strings.Fields(rest) {
		if n == 3 {
			break
		}
		f = strings.ToLower(f)
		if f == "secret" || f == "secrets" || strings.HasPrefix(f, "secret/") || strings.HasPrefix(f, "secrets/") {
			return true
		}
	}
	return false
}

// kubeFlow redacts the values of a flow map ({"k": "v", k2: v2}) that
// starts at k, up to its closing brace, and returns where it ended.
func (r *redactor) kubeFlow(k int) int {
	s := r.s
	// kubectl get -o json writes the map over lines; it ends at its
	// brace, or at the bound.
	lim := min(len(s), k+maxKubeFlow)
	for k < lim && s[k] != '}' {
		// The key, up to the ':' after it.
		for k < lim && s[k] != ':' && s[k] != '}' {
			if s[k] == '"' || s[k] == '\'' {
				if e := strings.IndexByte(s[k+1:lim], s[k]); e >= 0 && !strings.ContainsAny(s[k+1:k+1+e], ":}\n") {
					k += e + 1
				}
			}
			k++
		}
		if k >= lim || s[k] != ':' {
			break
		}
		v := skipBlanks(s, k+1)
		from, to, next := flowValue(s, v)
		if to > from {
			r.replace(from, to, Redacted)
		}
		k = next
		for k < lim && (s[k] == ',' || s[k] == ' ' || s[k] == '\t' || s[k] == '\n' || s[k] == '\r') {
			k++
		}
	}
	return k
}

// maxKubeFlow bounds the flow map kubeFlow reads.
const maxKubeFlow = 64 << 10

// flowValue returns the secret part of the flow map value at v (inside
// its quotes, which may be escaped as in "{\"k\":\"v\"}") and where the
// map goes on.
func flowValue(s string, v int) (from, to, next int) {
	switch {
	case strings.HasPrefix(s[v:], `\"`):
		if e := strings.Index(s[v+2:], `\"`); e >= 0 && !strings.Contains(s[v+2:v+2+e], "\n") {
			return v + 2, v + 2 + e, v + 4 + e
		}
	case v < len(s) && (s[v] == '"' || s[v] == '\''):
		q := s[v]
		for e := v + 1; e < len(s) && s[e] != '\n'; e++ {
			if s[e] == '\\' {
				e++
				continue
			}
			if s[e] == q {
				return v + 1, e, e + 1
			}
		}
	}
	e := v
	for e < len(s) && s[e] != ',' && s[e] != '}' && s[e] != '\n' && s[e] != '\'' && s[e] != '"' {
		e++
	}
	end := e
	for end > v && (s[end-1] == ' ' || s[end-1] == '\t') {
		end--
	}
	return v, end, e
}

// kubeBlock redacts the values of the block map whose key, at column
// indent, is on the line that ends at nl: every line below it indented
// deeper, up to the first one that is not. A child's value is what
// follows its "key:"; the lines of a block scalar (key: |) and any
// deeper line are redacted whole. It returns the start of the first
// line not redacted.
func (r *redactor) kubeBlock(nl, indent int) int {
	s := r.s
	child := -1
	for nl < len(s) {
		line := nl + 1
		end := len(s)
		if e := strings.IndexByte(s[line:], '\n'); e >= 0 {
			end = line + e
		}
		nl = end
		t := line
		for t < end && (s[t] == ' ' || s[t] == '\t') {
			t++
		}
		ce := end
		for ce > t && (s[ce-1] == ' ' || s[ce-1] == '\t' || s[ce-1] == '\r') {
			ce--
		}
		if ce == t || s[t] == '#' {
			continue
		}
		col := t - line
		if col <= indent {
			return line
		}
		if child < 0 {
			child = col
		}
		v := t
		if col == child {
			v = ce
			for c := t; c < ce; c++ {
				if s[c] == ':' && (c+1 == ce || s[c+1] == ' ' || s[c+1] == '\t') {
					v = skipBlanks(s, c+1)
					break
				}
			}
			if v == ce {
				v = t // no key: a plain scalar's next line
			}
		}
		if v < ce && !blockIndicator(s[v:ce]) {
			if q := strings.LastIndexAny(s[v:ce], `'"`); q > 0 && s[v] != '\'' && s[v] != '"' && shellAfterQuote(s[v+q+1:ce]) {
				ce = v + q // echo '…⏎  k: v' | kubectl apply -f -: the quote ends the text
			}
			if q := s[v]; (q == '"' || q == '\'') && ce-v >= 2 && s[ce-1] == q {
				v, ce = v+1, ce-1
			}
			if ce > v {
				r.replace(v, ce, Redacted)
			}
		}
	}
	return len(s)
}

// blockIndicator reports whether v is a YAML block scalar's header (|,
// >-, |2+), whose value is the deeper lines after it.
func blockIndicator(v string) bool {
	if v == "" || v[0] != '|' && v[0] != '>' {
		return false
	}
	for k := 1; k < len(v); k++ {
		switch c := v[k]; {
		case c == '-' || c == '+' || c >= '1' && c <= '9':
		case c == ' ' || c == '\t':
			return strings.TrimSpace(v[k:]) == "" || strings.TrimSpace(v[k:])[0] == '#'
		default:
			return false
		}
	}
	return true
}

// shellAfterQuote reports whether rest, after a quote that closes a
// shell string, is shell: nothing, or a pipe, redirection or list.
func shellAfterQuote(rest string) bool {
	rest = strings.TrimLeft(rest, " \t")
	return rest == "" || strings.IndexByte("|>;&)", rest[0]) >= 0
}

// kustomizeLiterals redacts the values of the NAME=VALUE items of the
// literals list whose key is the word s[i:j], when it belongs to a
// kustomization's secretGenerator (not a configMapGenerator), and
// returns where the pass resumes, or 0.
func (r *redactor) kustomizeLiterals(i, j int) int {
	s := r.s
	if j >= len(s) || s[j] != ':' || !yamlKeyAt(s, i) {
		return 0
	}
	nl := j + 1
	for nl < len(s) && (s[nl] == ' ' || s[nl] == '\t' || s[nl] == '\r') {
		nl++
	}
	if nl >= len(s) || s[nl] != '\n' {
		return 0
	}
	// The generator is the nearest one named before; each byte is
	// looked back at once.
	lo := max(r.genScan, i-maxGeneratorLook)
	if g := strings.LastIndex(s[lo:i], "Generator:"); g >= 0 {
		r.genSecret = strings.HasSuffix(s[max(0, lo+g-6):lo+g], "secret")
	}
	r.genScan = i
	if !r.genSecret {
		return 0
	}
	indent := i - strings.LastIndexByte(s[:i], '\n') - 1
	for nl < len(s) {
		line := nl + 1
		end := len(s)
		if e := strings.IndexByte(s[line:], '\n'); e >= 0 {
			end = line + e
		}
		t := line
		for t < end && (s[t] == ' ' || s[t] == '\t') {
			t++
		}
		if t-line < indent || t+1 >= end || s[t] != '-' || s[t+1] != ' ' {
			return line
		}
		v := skipBlanks(s, t+2)
		if eq := strings.IndexByte(s[v:end], '='); eq > 0 {
			from, to := v+eq+1, end
			for to > from && (s[to-1] == '\r' || s[to-1] == ' ' || s[to-1] == '"' || s[to-1] == '\'') {
				to--
			}
			if from < to && (s[from] == '"' || s[from] == '\'') {
				from++
			}
			if to > from {
				r.replace(from, to, Redacted)
			}
		}
		nl = end
	}
	return len(s)
}

// maxGeneratorLook bounds the look back from a literals key to the
// generator it belongs to.
const maxGeneratorLook = 4096
