package confine

import (
	"fmt"
	"testing"
)

// TestOwnerKeyBounded: each owner gets a key of its own, the same one on
// every call, until maxOwnerDomains owners have one; later owners share
// the level's key, so identities a proxy names cannot make threads
// without end.
func TestOwnerKeyBounded(t *testing.T) {
	c := &Confiner{workers: map[string]*worker{}, owners: map[string]int{}, owned: map[string]bool{}}
	for i := 0; i < maxOwnerDomains+8; i++ {
		owner := fmt.Sprintf("user%d", i)
		want := "read@" + owner
		if i >= maxOwnerDomains {
			want = "read"
		}
		for range 2 {
			if got := c.ownerKey("read", owner); got != want {
				t.Fatalf("owner %d: key %q, want %q", i, got, want)
			}
		}
	}
	if got := c.ownerKey("temp", "user40"); got != "temp@user40" {
		t.Errorf("another level's bound is its own: %q", got)
	}
}
