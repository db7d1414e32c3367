package policy

// readOptForm is the read-only form of a diagnostic program: the options
// it takes there and how many operands (-1 for any).
type readOptForm struct {
	spec   optSpec
	maxOps int
}

// readOptNeeds are the options a read form must have: dnsmasq without
// --test is the server, ldconfig without -p rebuilds the library cache.
var readOptNeeds = map[string]struct {
	short byte
	long  string
}{"dnsmasq": {0, "--test"}, "ldconfig": {'p', "--print-cache"}}

// readOptPrograms are diagnostic programs that only read in the forms
// listed; an option not listed may be one that writes or changes
// something (drill -w writes the answer, pmap -n a configuration, utmpdump
// -o a file, arping -U and -s announce or spoof an address, mii-tool -r
// and -F reset or force the link, clog -i creates a log, iwconfig with
// settings sets them), so it makes them tier 2.
var readOptPrograms = map[string]readOptForm{
	"slabtop": {optSpec{flags: "ohV", valueShort: "ds",
		longFlags: set(`--once --help --version`), longVals: set(`--delay --sort`)}, 0},
	"avahi-browse": {optSpec{flags: "atrclkvpfbDhV", valueShort: "d",
		longFlags: set(`--all --terminate --resolve --cache --ignore-local --no-db-lookup --verbose --parsable
			--no-fail --dump-db --browse-domains --help --version`), longVals: set(`--domain`)}, 1},
	"jsonfilter": {optSpec{flags: "qh", valueShort: "iseFtl"}, 0},
	"sg_inq": {optSpec{flags: "cdeEHhrsuvVx", valueShort: "pl",
		longFlags: set(`--cmddt --descriptors --export --extended --hex --id --raw --vpd --verbose --version --help`),
		longVals:  set(`--page --len`)}, 1},
	// sg3_utils' inquiries: sg_vpd sends INQUIRY, sg_readcap READ
	// CAPACITY, sg_turs TEST UNIT READY, sg_logs LOG SENSE (not --reset,
	// --select or --control, which send LOG SELECT, nor --sp, which has
	// the device save its parameters) and sg_ses RECEIVE DIAGNOSTIC
	// RESULTS (not --control, --set, --clear, --data, --byte1, --mask or
	// --nickname, which send a control page). --js-file writes a file.
	"sg_vpd": {optSpec{flags: "aeEfhHilqrvV", valueShort: "mpMIQ",
		longFlags: set(`--all --enumerate --examine --force --help --hex --ident --long --quiet --raw --verbose --version`),
		longVals:  set(`--maxlen --page --vendor --inhex --sinq_inraw --sinq-inraw`)}, 1},
	"sg_readcap": {optSpec{flags: "bhHlprRvVz", valueShort: "L",
		longFlags: set(`--brief --help --hex --long --pmi --raw --readonly --verbose --version --zbc`),
		longVals:  set(`--lba`)}, 1},
	"sg_turs": {optSpec{flags: "hlptvV", valueShort: "dn",
		longFlags: set(`--help --low --progress --time --verbose --version`),
		longVals:  set(`--delay --num --number`)}, 1},
	"sg_logs": {optSpec{flags: "aAbeEFhHlnNqQrtTuvVxX", valueShort: "fimMpPD",
		longFlags: set(`--all --ALL --brief --enumerate --exclude --full --help --hex --list --name --new --no_inq
			--no-inq --pcb --ppc --raw --readonly --temperature --transport --undefined --verbose --version`),
		longVals: set(`--filter --in --inhex --maxlen --vendor --page --paramp --pdt`)}, 1},
	"sg_ses": {optSpec{flags: "efhHijlqrRsvVw", valueShort: "pmIGDxANX",
		longFlags: set(`--enumerate --filter --help --hex --inner-hex --inner_hex --join --list --quiet --raw
			--readonly --status --verbose --version --warn`),
		longVals: set(`--page --maxlen --index --get --descriptor --dev-slot-num --dev_slot_num --dsn --sas-addr
			--sas_addr --nickid --inhex`)}, 1},
	"pmap": {optSpec{flags: "xXdqphV", valueShort: "A",
		longFlags: set(`--extended --device --quiet --show-path --help --version`), longVals: set(`--range`)}, -1},
	"utmpdump": {optSpec{flags: "frhV", longFlags: set(`--follow --reverse --help --version`)}, 1},
	"arping":   {optSpec{flags: "fqbD0hV", valueShort: "cwWIi"}, 1},
	"drill":    {optSpec{flags: "46aDeQsStTuvxzh", valueShort: "bdkopV"}, -1},
	"mii-tool": {optSpec{flags: "vVwh", valueShort: "p",
		longFlags: set(`--verbose --version --watch --help`), longVals: set(`--phy`)}, -1},
	"clog":     {optSpec{flags: "f"}, 1},
	"iwconfig": {optSpec{}, 1},
	"systemd-resolve": {optSpec{flags: "46h", valueShort: "itcp",
		longFlags: set(`--status --statistics --no-pager --help --version --service --openpgp --tlsa`),
		longVals:  set(`--interface --type --class --protocol --legend --cname --search --service-address --service-txt --raw`)}, -1},
	"omv-showkey": {optSpec{flags: "h"}, 1},
	// OpenWrt's ifstatus IFACE is ubus call network.interface.IFACE status.
	"ifstatus": {optSpec{}, 1},
	// freebsd-version -j runs the jail's own freebsd-version.
	"freebsd-version": {optSpec{flags: "kru"}, 0},
	"ras-mc-ctl": {optSpec{longFlags: set(`--summary --errors --status --mainboard --layout --print-labels
		--guess-labels --quiet --help`)}, 0},
	"mcelog": {optSpec{longFlags: set(`--client --help --version`)}, 0},
	// OpenMediaVault's system report and OPNsense's version.
	"omv-sysinfo":      {optSpec{flags: "h"}, 1},
	"opnsense-version": {optSpec{}, 0},
	// update-alternatives and RHEL's alternatives, asked about a group.
	"update-alternatives": {optSpec{longFlags: set(`--display --list --query --get-selections --help --version`)}, 1},
	"alternatives":        {optSpec{longFlags: set(`--display --list --help --version`)}, 1},
	// ldconfig -p prints the library cache; every other form rebuilds it.
	"ldconfig": {optSpec{flags: "pv", longFlags: set(`--print-cache --verbose`)}, 0},
	"mountpoint": {optSpec{flags: "qdxh",
		longFlags: set(`--quiet --fs-devno --devno --nofollow --help --version`)}, 1},
	"lsfd": {optSpec{flags: "JrnluihV", valueShort: "poQ",
		longFlags: set(`--json --raw --noheadings --notruncate --list-columns --summary --threads --inet --help --version`),
		longVals:  set(`--pid --output --filter`)}, 0},
	"filefrag":   {optSpec{flags: "BeksvxX"}, -1},
	"e2freefrag": {optSpec{flags: "h", valueShort: "c"}, 1},
	// vgck --updatemetadata and pvck --repair write; pvck -f names the
	// file --dump writes.
	"vgck": {optSpec{flags: "vdqt"}, -1},
	"pvck": {optSpec{flags: "vdq", longVals: set(`--dump`)}, -1},
	// klist -K prints the keys themselves.
	"klist":       {optSpec{flags: "ckltseafnAC"}, 1},
	"varnishstat": {optSpec{flags: "1jxlV", valueShort: "fnNtw"}, 0},
	// DNS configuration checks: named-checkzone -o writes the zone and -t
	// and -w change directory.
	"named-checkzone":   {optSpec{flags: "dDhijqsv", valueShort: "cfFkmMnrSTW"}, 2},
	"unbound-checkconf": {optSpec{flags: "fhq", valueShort: "o"}, 1},
	"dnsmasq":           {optSpec{valueShort: "C", longFlags: set(`--test`), longVals: set(`--conf-file`)}, 0},
	"lxc-ls":            {optSpec{flags: "1fF", valueShort: "Pg", longFlags: set(`--line --fancy --active --running --frozen --stopped --defined --help`)}, -1},
	"lxc-info":          {optSpec{flags: "cisSpHh", valueShort: "nP", longFlags: set(`--ips --state --stats --pid --no-humanize --help`), longVals: set(`--name --lxcpath`)}, 1},
	// The searches of mlocate, plocate and slocate; slocate's -u and -U
	// DIR rebuild its database (-o names the file), which is where a
	// NAS's locate is slocate, a write and a walk of every disk.
	// net-snmp's queries: -L (a log file), -Y and --NAME=VALUE (any
	// snmp.conf directive) and -D are not among the read form's options.
	"snmpget":       snmpForm,
	"snmpgetnext":   snmpForm,
	"snmpbulkget":   snmpForm,
	"snmpwalk":      snmpForm,
	"snmpbulkwalk":  snmpForm,
	"snmptable":     snmpForm,
	"snmpstatus":    snmpForm,
	"snmpdf":        snmpForm,
	"snmpnetstat":   snmpForm,
	"snmptranslate": snmpForm,
	// zipinfo lists an archive; -x names members to leave out.
	"zipinfo": {optSpec{flags: "12smlvhMtTzCWUx", valueShort: "OI"}, -1},
	// FreeBSD's swap and jail listings; -M and -N read a core and kernel.
	"swapinfo": {optSpec{flags: "ghkmsT", valueShort: "MN"}, 0},
	"jls":      {optSpec{flags: "dhNnqsv", valueShort: "j", longVals: set(`--libxo`)}, -1},
	// finger prints who is logged in and users' login records and plan
	// files (or asks a finger server, user@host, as whois asks one); no
	// option of Linux's or the BSDs' takes a value or writes.
	"finger":  {optSpec{flags: "46ghklmops"}, -1},
	"locate":  locateForm,
	"plocate": locateForm,
	"mlocate": locateForm,
	"slocate": locateForm,
}

var snmpForm = readOptForm{optSpec{flags: "dhHV", valueShort: "3aAcCeEIlmMnOPprtTuvxXZ"}, -1}

var locateForm = readOptForm{optSpec{flags: "AbceiLhHmPN0SqswV", valueShort: "dlnr",
	longFlags: set(`--all --basename --count --existing --follow --help --ignore-case --mmap --nofollow
		--null --statistics --quiet --stdio --version --wholename --literal --regex`),
	longVals: set(`--database --limit --regexp`)}, -1}

// readOptProgram classifies readOptPrograms: tier 0 in the listed form,
// tier 2 otherwise.
func readOptProgram(c *call) (Tier, string) {
	f := readOptPrograms[c.name]
	ops, _, ok := c.readOpts(f.spec)
	if need, needs := readOptNeeds[c.name]; ok && needs && !hasFlag(argVals(c.args), need.short, need.long) {
		ok = false
	}
	if ok && (f.maxOps < 0 || len(ops) <= f.maxOps) {
		return TierRead, c.name + ": reads"
	}
	if t, ok := readOptElse[c.name]; ok {
		return t, c.name + ": options or operands not known to be read-only; it can send any command to the device"
	}
	return TierMutate, c.name + ": options or operands not known to be read-only"
}

// readOptElse are the tiers of readOptPrograms' other forms where not
// tier 2: sg3_utils' other forms write the device's settings or logs,
// and were tier 3 as unknown programs given a device.
var readOptElse = map[string]Tier{"sg_vpd": TierDestructive, "sg_readcap": TierDestructive,
	"sg_turs": TierDestructive, "sg_logs": TierDestructive, "sg_ses": TierDestructive}
