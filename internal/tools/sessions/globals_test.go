package sessions

import "testing"

// TestGlobalOptionValuesHideNoSubcommand: the value of an option before a
// subcommand (git -C DIR, docker -H ADDR, systemctl -n LINES) was taken
// for the subcommand, so an editor, a hunk chooser or a shell in a
// container that reads the next lines went unseen behind it.
func TestGlobalOptionValuesHideNoSubcommand(t *testing.T) {
	t.Parallel()
	for _, c := range []string{
		"git -C /srv/app add -p", "git -c a=b rebase -i HEAD~2", "git -C /srv commit", "git --git-dir /r/.git commit",
		"git -C log commit -a", "systemctl -n 5 edit nginx", "systemctl -H h edit x", "systemctl -n status edit x",
		"docker -H unix:///x exec -it web sh", "docker --context prod run -it alpine", "podman --url u attach c",
		"kubectl -n prod exec -it p -- sh", "kubectl --context c -n n attach p", "sudo git -C /srv commit",
	} {
		t.Run(c, func(t *testing.T) {
			if _, last := typeAll(tty, c, "\x03…", "", "clear all"); last.unseen == "" {
				t.Errorf("a line after it and Ctrl-C is read as the shell's: %q", last.text)
			}
		})
	}
}
