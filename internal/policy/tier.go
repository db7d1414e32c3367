package policy

import "strconv"

// Tier is how much a command can change the world. Higher is more dangerous.
//
// Tiers are ordered: TierRead < TierBenign < TierMutate < TierDestructive, and
// the tier of an input is the highest tier of anything in it.
type Tier int

// Tiers, from read-only inspection to destructive or raw operations.
const (
	// TierRead is read-only inspection: ls, cat, ps, df, git status, docker ps.
	TierRead Tier = 0
	// TierBenign has side effects that change nothing an operator cares about
	// and write nothing outside the temporary directories: creating a
	// directory under /tmp, asking a remote for its refs, starting an
	// interactive shell whose input is classified line by line.
	TierBenign Tier = 1
	// TierMutate changes the host: writing files, restarting services,
	// installing packages, running containers, unknown programs.
	TierMutate Tier = 2
	// TierDestructive is destructive or raw, or cannot be known: rm -r/-f,
	// disk tools, firewall flushes, force pushes, interpreter payloads,
	// commands computed at run time, anything that does not parse.
	TierDestructive Tier = 3
)

// String returns "tier0" … "tier3", the spelling the design and the audit log use.
func (t Tier) String() string {
	if t >= TierRead && t <= TierDestructive {
		return "tier" + strconv.Itoa(int(t))
	}
	return "tier(" + strconv.Itoa(int(t)) + ")"
}

func maxTier(a, b Tier) Tier {
	if a > b {
		return a
	}
	return b
}
