package policy

import (
	"path"
	"slices"
)

// The classifier bounds what it looks at for the files programs read: a
// pattern's matches, the units of one call, the directories up to a
// repository, the values of variables that make programs load code. What
// lies past a bound is not read, so a call that goes past one takes
// approval rather than run what the deny list was not shown: enough
// decoys ahead of a file must not hide it.

// pastLimit notes that the call goes past one of those bounds: it has more
// than limit of what.
func (e *eval) pastLimit(limit int, what string) {
	e.note(TierDestructive, false, "more than %d %s, past what the classifier reads", limit, what)
}

// upTo returns the first limit of list, noting when there are more that
// the call has more than limit of what.
func upTo[T any](e *eval, list []T, limit int, what string) []T {
	if len(list) > limit {
		e.pastLimit(limit, what)
		return list[:limit]
	}
	return list
}

// findUp returns the first directory up from dir, dir included, that
// root reports is the one looked for, or dir and false when there is
// none; past maxRepoUp directories the call takes approval.
func (e *eval) findUp(dir, what string, root func(string) bool) (string, bool) {
	for d, up := path.Clean(dir), 0; up < maxRepoUp; d, up = path.Dir(d), up+1 {
		if root(d) {
			return d, true
		}
		if d == "/" || d == "." {
			return dir, false
		}
	}
	e.pastLimit(maxRepoUp, "directories up from "+truncate(dir, 64)+" to "+what)
	return dir, false
}

// keepAll appends to kept each of vals it does not hold, up to limit of
// them, noting past it that the call has more than limit of what.
func keepAll[T comparable](e *eval, kept []T, vals []T, limit int, what string) []T {
	for _, v := range vals {
		if slices.Contains(kept, v) {
			continue
		}
		if len(kept) >= limit {
			e.pastLimit(limit, what)
			break
		}
		kept = append(kept, v)
	}
	return kept
}
