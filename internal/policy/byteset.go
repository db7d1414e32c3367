package policy

// A byteSet is a set of ASCII bytes to split text at. The splits that
// run over every word of a large text use one: strings.IndexAny builds
// its set again on every call.
type byteSet [256]bool

func newByteSet(chars string) *byteSet {
	var b byteSet
	for i := 0; i < len(chars); i++ {
		b[chars[i]] = true
	}
	return &b
}

// index returns the index of the first byte of s in b, or -1.
func (b *byteSet) index(s string) int {
	for i := 0; i < len(s); i++ {
		if b[s[i]] {
			return i
		}
	}
	return -1
}
