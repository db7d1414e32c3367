package policy

import "testing"

// TestBlindSpotTableValueOptions: a global option the subcommand table
// did not know takes a value, so the value, read as the subcommand, hid
// the real one: "npm --loglevel info exec -- CMD" runs CMD, "virsh --log
// list destroy VM" destroys, "zypper --userdata se remove X" removes,
// "flatpak --installation list uninstall --all" uninstalls. nopt (npm) and
// getopt_long (virsh, zypper) take them abbreviated too.
func TestBlindSpotTableValueOptions(t *testing.T) {
	p := testPolicy(t)
	var cases []blindCase
	for _, o := range []string{"--loglevel info", "--logl info", "--cache info", "--userc view", "--registry ls", "--reg ls", "-w view", "--workspace view",
		"--tag list", "--omit ls", "--prefix ls", "-C ls"} {
		for _, tail := range []string{"exec -- rm -rf /tmp/x", "unpublish x", "cache clean"} {
			cmd := "npm " + o + " " + tail
			cases = append(cases, blindCase{cmd, cmd, TierDestructive, false})
		}
	}
	for _, o := range []string{"--log list", "--lo list", "-l list", "--debug 1", "--deb 1", "-d 1", "--escape list", "-e list", "-k 5", "--keepalive-i 5", "-K 3", "--connect list", "--conn list"} {
		for _, tail := range []string{"destroy vm1", "undefine vm1", "vol-delete x"} {
			cmd := "virsh " + o + " " + tail
			cases = append(cases, blindCase{cmd, cmd, TierDestructive, false})
		}
	}
	for _, o := range []string{"--userdata se", "--user se", "-R se", "--root se", "--ro se", "-c se", "--config se", "-D se", "--reposd se", "-C se", "--cache-dir se"} {
		cmd := "zypper " + o + " remove x"
		cases = append(cases, blindCase{cmd, cmd, TierMutate, false})
	}
	cases = append(cases, sameCases(TierDestructive, false,
		"flatpak --installation list uninstall --all", "flatpak --installation info remove org.x.App", "flatpak --user --installation list repair",
	)...)
	runBlindHosts(t, p, cases)
	runExactHosts(t, p, []exactCase{
		{"npm ls", "npm --loglevel info ls", TierRead},
		{"npm view", "npm --registry https://registry.npmjs.org view x", TierRead},
		{"virsh list", "virsh --conn qemu:///system list --all", TierRead},
		{"virsh -c list", "virsh -c qemu:///system list", TierRead},
		{"zypper se", "zypper --userdata x se nginx", TierRead},
		{"zypper lr", "zypper -R /mnt lr", TierMutate},
		{"flatpak list", "flatpak --installation default list", TierRead},
	})
}
