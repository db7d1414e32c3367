package policy

import "testing"

// TestBlindSpotLocalInstalls: installing a local project or package file
// runs code from it (setup.py, install scripts, build.rs, maintainer
// scripts as root), so installing one a tier 1 write could have made,
// under a temporary directory or at a place known only in part, is tier 3
// in every package tool and spelling; installing by name stays what it was.
func TestBlindSpotLocalInstalls(t *testing.T) {
	p := protectedPolicy(t)
	cases := sameCases(TierDestructive, false,
		"pip install /tmp/x", "pip install -e /tmp/x", "pip install --editable=/tmp/x", "pip3 install --user /var/tmp/p.tar.gz",
		"pip install -r /tmp/req.txt", "pip install -U -r /dev/shm/r.txt", "pip install -f /tmp/wheels pkg",
		"cd /tmp/x && pip install .", "cd /tmp && pip install ./x", "d=/tmp/q; pip install \"$d\"", "pip install \"$D\"/pkg",
		"pip wheel /tmp/x", "pip download -d /srv/w /tmp/x", "pip --retries 3 install /tmp/x", "pipx install /tmp/x",
		"pipx install --spec /tmp/x tool", "npm install /tmp/x", "npm i /tmp/x.tgz", "gem install /tmp/x.gem",
		"gem build /tmp/x/x.gemspec", "cargo install --path /tmp/x", "cargo install --path=/tmp/x",
		"apt install /tmp/x.deb", "apt-get install -y /var/tmp/x.deb", "cd /tmp && apt install ./x.deb",
		"dpkg -i /tmp/x.deb", "dpkg --install /tmp/x.deb", "dpkg -R /tmp/debs", "dpkg --unpack /tmp/x.deb",
		"rpm -ivh /tmp/x.rpm", "rpm -Uvh /tmp/x.rpm", "rpm --install /tmp/x.rpm", "dnf install /tmp/x.rpm",
		"yum localinstall /tmp/x.rpm", "zypper in /tmp/x.rpm", "apk add --allow-untrusted /tmp/x.apk",
		"snap install --dangerous /tmp/x.snap", "sudo dpkg -i /tmp/x.deb", "sudo -E pip install /tmp/x",
	)
	runBlindHosts(t, p, cases)

	var exact []exactCase
	for c, tier := range map[string]Tier{
		"pip install requests": TierMutate, "pip install -t /tmp/t requests": TierMutate, "npm i left-pad": TierMutate,
		"cargo install ripgrep": TierMutate, "apt-get install -y nginx": TierMutate, "dnf install -y httpd": TierMutate,
		"pip install git+https://example.com/x": TierMutate, "dpkg -l": TierRead, "rpm -qi bash": TierRead,
		"pip install /srv/app": TierMutate, "dpkg -i /srv/pkgs/x.deb": TierMutate, "pip list": TierRead,
	} {
		exact = append(exact, exactCase{c, c, tier})
	}
	runExactHosts(t, p, exact)
}
