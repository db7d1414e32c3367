package snapshot

import "errors"

// errTooBig is returned by writeFile when r holds more than max bytes.
var errTooBig = errors.New("larger than the byte bound")

// written is one completed file write.
type written struct {
	SHA256  string
	Bytes   int64
	Created bool
}

// destStat is what a copy needs to know of an existing destination name.
type destStat struct {
	regular bool
	kind    string
}

// truncName keeps temporary names within NAME_MAX.
func truncName(name string) string {
	if len(name) > 200 {
		return name[:200]
	}
	return name
}
