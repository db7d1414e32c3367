//go:build linux && !amd64 && !arm64

package confine

// arches is empty here: without a syscall table no filter is built, and
// Status says so.
var arches = map[string]arch{}
