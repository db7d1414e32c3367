package policy

import (
	"fmt"
	"strings"
)

// Mode is how much a caller may do without a human's approval.
type Mode string

// Modes, from strictest to most permissive.
const (
	// Readonly admits tier 0 only; everything else is denied outright.
	Readonly Mode = "readonly"
	// Guarded admits tiers 0–1; tiers 2–3 need approval. It is the default.
	Guarded Mode = "guarded"
	// Open admits tiers 0–2; tier 3 needs approval.
	Open Mode = "open"
)

// strictness orders modes; an unknown mode is treated as the strictest.
func (m Mode) strictness() int {
	switch m {
	case Open:
		return 0
	case Guarded:
		return 1
	default:
		return 2
	}
}

// ParseMode parses a mode name. Surrounding space and case are ignored.
func ParseMode(s string) (Mode, error) {
	m := Mode(strings.ToLower(strings.TrimSpace(s)))
	switch m {
	case Readonly, Guarded, Open:
		return m, nil
	}
	return "", fmt.Errorf("policy: parse mode %q: want readonly, guarded or open", s)
}

// Narrow returns the stricter of two modes. An empty mode means unset and
// yields the other; a mode that is not one of the three constants counts as
// Readonly, so a typo can only make things stricter.
func Narrow(a, b Mode) Mode {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	if a.strictness() >= b.strictness() {
		if a.strictness() == 2 {
			return Readonly
		}
		return a
	}
	if b.strictness() == 2 {
		return Readonly
	}
	return b
}

// Decision is what the pipeline does with a call.
type Decision string

// Decisions.
const (
	// Allow runs the call.
	Allow Decision = "allow"
	// Approve holds the call until a human approves it.
	Approve Decision = "approval_required"
	// Deny refuses the call; no approval can change that.
	Deny Decision = "denied"
)

// Admit decides a verdict under a mode.
//
// A denied verdict is always Deny. Readonly admits tier 0 and denies the rest;
// an operator allow rule does not widen readonly, because readonly promises
// that nothing changes. Guarded admits tiers 0–1 and asks approval for 2–3;
// Open admits 0–2 and asks approval for 3. In those two modes an operator allow
// rule (Verdict.Allowed) turns Approve into Allow. The empty mode is the
// default, Guarded; any other unknown mode is treated as Readonly.
func Admit(m Mode, v Verdict) Decision {
	if v.Denied {
		return Deny
	}
	var limit Tier
	switch m {
	case Open:
		limit = TierMutate
	case Guarded, "":
		limit = TierBenign
	default:
		if v.Tier <= TierRead {
			return Allow
		}
		return Deny
	}
	if v.Tier <= limit {
		return Allow
	}
	if v.Allowed {
		return Allow
	}
	return Approve
}
