package policy

import "testing"

func TestTierString(t *testing.T) {
	for tier, want := range map[Tier]string{TierRead: "tier0", TierBenign: "tier1", TierMutate: "tier2", TierDestructive: "tier3", 7: "tier(7)"} {
		if got := tier.String(); got != want {
			t.Errorf("Tier(%d).String() = %q, want %q", int(tier), got, want)
		}
	}
}

func TestParseMode(t *testing.T) {
	tests := []struct {
		in   string
		want Mode
		err  bool
	}{
		{"readonly", Readonly, false},
		{"guarded", Guarded, false},
		{"open", Open, false},
		{" Open\n", Open, false},
		{"GUARDED", Guarded, false},
		{"", "", true},
		{"read-only", "", true},
		{"opened", "", true},
	}
	for _, tc := range tests {
		got, err := ParseMode(tc.in)
		if got != tc.want || (err != nil) != tc.err {
			t.Errorf("ParseMode(%q) = %q, %v; want %q, err=%v", tc.in, got, err, tc.want, tc.err)
		}
	}
}

func TestNarrow(t *testing.T) {
	tests := []struct {
		a, b, want Mode
	}{
		{"", "", ""},
		{"", Open, Open},
		{Guarded, "", Guarded},
		{Open, Guarded, Guarded},
		{Guarded, Open, Guarded},
		{Open, Readonly, Readonly},
		{Readonly, Open, Readonly},
		{Guarded, Readonly, Readonly},
		{Open, Open, Open},
		{Open, "bogus", Readonly},
		{"bogus", Guarded, Readonly},
	}
	for _, tc := range tests {
		if got := Narrow(tc.a, tc.b); got != tc.want {
			t.Errorf("Narrow(%q, %q) = %q, want %q", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestAdmit(t *testing.T) {
	v := func(t Tier) Verdict { return Verdict{Tier: t} }
	allowed := func(t Tier) Verdict { return Verdict{Tier: t, Allowed: true} }
	denied := Verdict{Tier: TierRead, Denied: true, Allowed: true}
	tests := []struct {
		name string
		mode Mode
		v    Verdict
		want Decision
	}{
		{"readonly t0", Readonly, v(TierRead), Allow},
		{"readonly t1", Readonly, v(TierBenign), Deny},
		{"readonly t2", Readonly, v(TierMutate), Deny},
		{"readonly t3", Readonly, v(TierDestructive), Deny},
		{"readonly allow rule does not widen", Readonly, allowed(TierMutate), Deny},
		{"guarded t0", Guarded, v(TierRead), Allow},
		{"guarded t1", Guarded, v(TierBenign), Allow},
		{"guarded t2", Guarded, v(TierMutate), Approve},
		{"guarded t3", Guarded, v(TierDestructive), Approve},
		{"guarded t2 allowed", Guarded, allowed(TierMutate), Allow},
		{"guarded t3 allowed", Guarded, allowed(TierDestructive), Allow},
		{"open t2", Open, v(TierMutate), Allow},
		{"open t3", Open, v(TierDestructive), Approve},
		{"open t3 allowed", Open, allowed(TierDestructive), Allow},
		{"denied readonly", Readonly, denied, Deny},
		{"denied guarded", Guarded, denied, Deny},
		{"denied open allowed", Open, denied, Deny},
		{"empty mode is guarded", "", v(TierMutate), Approve},
		{"empty mode t1", "", v(TierBenign), Allow},
		{"unknown mode is readonly", "yolo", v(TierBenign), Deny},
		{"unknown mode t0", "yolo", v(TierRead), Allow},
	}
	for _, tc := range tests {
		if got := Admit(tc.mode, tc.v); got != tc.want {
			t.Errorf("%s: Admit(%q, %+v) = %q, want %q", tc.name, tc.mode, tc.v, got, tc.want)
		}
	}
}
