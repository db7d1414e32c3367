package policy

import (
	"strings"
	"testing"
)

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

// TestBlindSpotInstallOperandSpellings: the local project or package file
// a package tool installs is seen in every spelling: an operand known only
// at run time that begins with an expansion ("$p", $(cat l), xargs' and
// find's {}), which may be a path; an option's value naming a file
// relative to a temporary working directory (-r req.txt); file: URLs and
// pip's "name @ file:" form; and the tools of routers, NAS boxes and
// desktops that install package files with their scripts (opkg, pacman -U,
// pkg add, yarn and pnpm add). A name, or a word that begins with one, is
// still installed by name at tier 2.
func TestBlindSpotInstallOperandSpellings(t *testing.T) {
	p := protectedPolicy(t)
	cases := sameCases(TierDestructive, false,
		`pip install "$p"`, `pip install $p`, `pip3 install ${pkg}`, `pip install -U "$1"`, `pip install -r "$f"`,
		`pip install --requirement="$f"`, `pip install -e "$p"`, "pip install `cat /tmp/l`", `pip install $(cat /tmp/l)`,
		`pipx install "$p"`, `npm install "$p"`, `npm i "${pkgs[@]}"`, `gem install "$g"`, `cargo install --path "$d"`,
		`apt-get install -y "$p"`, `apt install $(ls /tmp/*.deb)`, `dpkg -i "$p"`, `rpm -Uvh "$p"`, `dnf install "$p"`,
		`zypper in "$p"`, `apk add --allow-untrusted "$p"`, `snap install --dangerous "$p"`, `brew install "$p"`,
		"find /tmp -name '*.whl' | xargs pip install", "find /tmp -name '*.deb' -exec dpkg -i {} +",
		"ls /tmp/*.deb | xargs apt install", "ls /tmp | xargs -I{} pip install {}",
		"cd /tmp/x && pip install -r req.txt", "cd /tmp/x && pip install -e src", "cd /tmp/x; pip install -c c.txt -r r.txt",
		"cd /var/tmp/p && cargo install --path crate",
		"pip install file:///tmp/x", "pip install file:/tmp/x", "pip install 'x @ file:///tmp/x'", "pip install file://localhost/tmp/x.whl",
		"npm install file:/tmp/x", "npm i file:../../tmp/x", "yarn add /tmp/x", "yarn add file:/tmp/x", "pnpm add /tmp/x",
		"pnpm add file:/dev/shm/x", "opkg install /tmp/x.ipk", "opkg install /tmp/upload/luci-app-x_1.0_all.ipk",
		`opkg install "$p"`, "opkg -d ram install /tmp/x.ipk", "pacman -U /tmp/x.pkg.tar.zst", "pacman -Udd /var/tmp/x.pkg.tar.xz",
		"pacman --upgrade /tmp/x.pkg.tar.zst", `pacman -U "$p"`, "pkg add /tmp/x.pkg", "pkg install /tmp/x.txz", `pkg add "$p"`,
		"sudo opkg install /tmp/x.ipk", "sudo pacman -U /tmp/x.pkg.tar.zst",
	)
	// What find and ls print is read from this machine's directory: files
	// other tests write under /tmp meanwhile (one named halt, say) would
	// make these denied by name, so they list a directory of the test's.
	listed := strings.NewReplacer("find /tmp ", "find "+t.TempDir()+" ", "ls /tmp ", "ls "+t.TempDir()+" ")
	for i := range cases {
		cases[i].cmd = listed.Replace(cases[i].cmd)
	}
	runBlindHosts(t, p, cases)

	var exact []exactCase
	for c, tier := range map[string]Tier{
		"pip install requests": TierMutate, `pip install "requests==$v"`: TierMutate,
		"apt-get install -y linux-headers-$(uname -r)": TierMutate, `apt-get install -y "nginx=$ver"`: TierMutate,
		"pip install -r requirements.txt": TierMutate, "cd /srv/app && pip install -r requirements.txt": TierMutate,
		"pip install file:///srv/wheels/x.whl": TierMutate, "npm install file:lib": TierMutate,
		"opkg install luci-app-sqm": TierMutate, "opkg update": TierMutate, "pacman -S nginx": TierMutate, "pacman -Syu": TierMutate,
		"pacman -Qi bash": TierRead, "pkg install -y nginx": TierMutate, "pkg info": TierRead, "yarn add left-pad": TierMutate,
		"pnpm add lodash": TierMutate, "pip install https://example.com/x.whl": TierMutate,
	} {
		exact = append(exact, exactCase{c, c, tier})
	}
	runExactHosts(t, p, exact)
}
