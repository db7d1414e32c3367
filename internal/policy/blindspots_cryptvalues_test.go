package policy

import "testing"

// TestBlindSpotCryptsetupActionAfterValue: cryptsetup's action is the
// first word that is not an option or an option's value, so a value that
// reads like a reading action (status, dump) is not the action:
// "cryptsetup -d status luksKillSlot DEV 1" kills a key slot.
func TestBlindSpotCryptsetupActionAfterValue(t *testing.T) {
	p := testPolicy(t)
	var cases []blindCase
	for _, o := range []string{"-d", "--key-file", "-S", "--key-slot", "-M", "--type", "-c", "--cipher", "-h", "--hash",
		"-s", "--key-size", "--header", "--uuid", "-qd", "-vS", "--timeout", "--pbkdf", "--token-id"} {
		for _, v := range []string{"status", "luksDump", "isLuks", "dump", "benchmark"} {
			cmd := "cryptsetup " + o + " " + v + " luksKillSlot /dev/sdb 1"
			cases = append(cases, blindCase{cmd, cmd, TierDestructive, false})
		}
		cmd := "cryptsetup " + o + " status luksRemoveKey /dev/sdb"
		cases = append(cases, blindCase{cmd, cmd, TierDestructive, false})
	}
	runBlindHosts(t, p, cases)
	runExactHosts(t, p, []exactCase{
		{"cryptsetup status", "cryptsetup status cryptroot", TierRead},
		{"cryptsetup -v status", "cryptsetup -v status cryptroot", TierRead},
		{"cryptsetup --debug status", "cryptsetup --debug status cryptroot", TierRead},
		{"cryptsetup --type luksDump", "cryptsetup --type luks2 luksDump /dev/sdb", TierRead},
		{"cryptsetup --header isLuks", "cryptsetup --header /tmp/h isLuks /dev/sdb", TierRead},
		{"cryptsetup -d open", "cryptsetup -d /tmp/k open /dev/sdb x", TierMutate},
	})
}
