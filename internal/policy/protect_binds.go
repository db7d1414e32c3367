package policy

import (
	"path"
	"slices"
	"strings"
)

// Container bind mounts of warden's state. A recursive read of a directory
// above warden's state (tar czf x /root) runs as warden's child, where the
// confinement holds the state away from it, so it is left at tier 3. A
// bind mount is made by the container engine's daemon (dockerd,
// containerd, a remote podman service), outside that confinement: docker
// run -v /:/h gives the container warden's token and audit log to read
// and rewrite whatever tier admitted it. So a bind source that holds a
// protected path, or is inside one, is denied, as a word naming the state
// is; on the local host only, where the state is.

// containerMounts returns the bind specs a container run or create gives,
// in every spelling the engines' flag parser takes: -v SPEC, -vSPEC,
// --volume SPEC, --volume=SPEC, --mount SPEC, --mount=SPEC, and -v last in
// a cluster of flags that take no value (-itv SPEC, -dtvSPEC).
func containerMounts(rest []string) []string {
	var specs []string
	for k := 0; k < len(rest); k++ {
		r := rest[k]
		next := ""
		if k+1 < len(rest) {
			next = rest[k+1]
		}
		switch {
		case r == "--":
			return specs
		case r == "--volume" || r == "--mount" || r == "--mount-add":
			specs = append(specs, next)
			k++
		case strings.HasPrefix(r, "--volume=") || strings.HasPrefix(r, "--mount=") || strings.HasPrefix(r, "--mount-add="):
			_, v, _ := strings.Cut(r, "=")
			specs = append(specs, v)
		case len(r) > 1 && r[0] == '-' && r[1] != '-':
			for i := 1; i < len(r); i++ {
				if strings.IndexByte("ditPq", r[i]) >= 0 {
					continue // takes no value
				}
				if r[i] == 'v' {
					if i+1 < len(r) {
						specs = append(specs, r[i+1:])
					} else {
						specs = append(specs, next)
						k++
					}
				}
				break // any other flag takes the rest as its value
			}
		}
	}
	return specs
}

// bindSource returns the host path of a -v or --mount spec.
func bindSource(spec string) string {
	if strings.HasPrefix(spec, "type=") || strings.Contains(spec, "source=") || strings.Contains(spec, "src=") {
		return mountField(spec, "source", "src")
	}
	src, _, _ := strings.Cut(spec, ":")
	return src
}

// bindTarget returns the container path of a bind spec as bindSource
// reads it: HOST:CONTAINER[:OPTS], or --mount's target=, dst= or
// destination=.
func bindTarget(spec string) string {
	if strings.HasPrefix(spec, "type=") || strings.Contains(spec, "target=") || strings.Contains(spec, "dst=") || strings.Contains(spec, "destination=") {
		return mountField(spec, "target", "dst", "destination")
	}
	_, dst, _ := strings.Cut(spec, ":")
	dst, _, _ = strings.Cut(dst, ":")
	return dst
}

// mountField returns the last value --mount's comma-separated fields give
// any of keys, or "".
func mountField(spec string, keys ...string) string {
	v := ""
	for _, f := range strings.Split(spec, ",") {
		if k, val, ok := strings.Cut(f, "="); ok && slices.Contains(keys, k) {
			v = val
		}
	}
	return v
}

// bindHoldsState says why binding host path src into a container reaches
// warden's own state, or returns "": src is the state, inside it, or a
// directory above it, in the spellings a shell leaves it (~, $HOME, a
// relative path after cd).
func (e *eval) bindHoldsState(src string) string {
	if e.p.protect == nil || !e.p.protect.own || !e.local || src == "" {
		return ""
	}
	home := e.p.protect.home
	for _, h := range []string{"~", "$HOME", "${HOME}"} {
		if rest, ok := strings.CutPrefix(src, h); ok && home != "" && (rest == "" || rest[0] == '/') {
			src = home + rest
		}
	}
	var cands []string
	switch {
	case strings.HasPrefix(src, "/"):
		cands = []string{src}
	case strings.HasPrefix(src, ".") && e.paths != nil:
		// docker and podman take ./dir and . from the working directory.
		dirs, _ := e.cwds()
		for _, d := range dirs {
			cands = append(cands, path.Join(d, src))
		}
	}
	for _, c := range cands {
		parts := splitPath(path.Clean(c))
		for _, p := range e.p.protect.paths {
			if !p.device && protMatch(parts, p.parts, isPattern(c)) != matchNone {
				return "binds " + truncate(src, 96) + ", which holds warden's own state, into a container: " +
					"the engine mounts it outside warden's confinement"
			}
		}
	}
	return ""
}
