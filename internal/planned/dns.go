package planned

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// DNS resources: private DNS zones, their records and VNet links, DNS
// private resolvers and forwarding rulesets, and private endpoints with
// their DNS zone groups (internal/gather convert_dns.go and
// convert_network.go read these members).

const (
	typeZone         = "Microsoft.Network/privateDnsZones"
	typeZoneLink     = "Microsoft.Network/privateDnsZones/virtualNetworkLinks"
	typeResolver     = "Microsoft.Network/dnsResolvers"
	typeInbound      = "Microsoft.Network/dnsResolvers/inboundEndpoints"
	typeOutbound     = "Microsoft.Network/dnsResolvers/outboundEndpoints"
	typeRuleset      = "Microsoft.Network/dnsForwardingRulesets"
	typeRule         = "Microsoft.Network/dnsForwardingRulesets/forwardingRules"
	typeRulesetLink  = "Microsoft.Network/dnsForwardingRulesets/virtualNetworkLinks"
	typePE           = "Microsoft.Network/privateEndpoints"
	typePEConnection = "Microsoft.Network/privateEndpoints/privateLinkServiceConnections"
	typePEZoneGroup  = "Microsoft.Network/privateEndpoints/privateDnsZoneGroups"
)

// childOf is the id of a child resource named by name under the resource
// its parent attribute holds.
func childOf(parentAttr, childType string) func(t *changeTranslation) (string, error) {
	return func(t *changeTranslation) (string, error) {
		parent, err := t.requiredRef(parentAttr)
		if err != nil {
			return "", err
		}
		name, err := t.name("name")
		if err != nil {
			return "", err
		}
		return parent + "/" + childType + "/" + name, nil
	}
}

// setRef sets properties.<member> to {"id": …} from an *_id attribute, or
// marks it unknown.
func setRef(t *changeTranslation, op *Op, attr, member string) {
	p := props(op.Body)
	if id, ok := t.refID(attr); ok {
		p[member] = ref(id)
	} else if t.get(attr).unknown() {
		p[member] = map[string]any{}
		op.Unknown = append(op.Unknown, "properties."+member+".id")
	}
}

func putZoneLink(t *changeTranslation, id string) error {
	b := base(id, typeZoneLink, t, true)
	b["location"] = "global"
	op := t.op(OpPut, id, b)
	p := props(b)
	setRef(t, op, "virtual_network_id", "virtualNetwork")
	if v, ok := t.get("registration_enabled").boolp(); ok {
		p["registrationEnabled"] = v
	} else if t.get("registration_enabled").unknown() {
		op.Unknown = append(op.Unknown, "properties.registrationEnabled")
	} else {
		p["registrationEnabled"] = false
	}
	if s := t.get("resolution_policy").str(); s != "" {
		p["resolutionPolicy"] = s
	} else if t.get("resolution_policy").unknown() {
		op.Unknown = append(op.Unknown, "properties.resolutionPolicy")
	} else {
		p["resolutionPolicy"] = "Default"
	}
	// A link Azure accepts is Completed once applied.
	p["virtualNetworkLinkState"] = "Completed"
	p["provisioningState"] = "Succeeded"
	return nil
}

func recordID(kind string) func(t *changeTranslation) (string, error) {
	return func(t *changeTranslation) (string, error) {
		return t.rgID(typeZone+"/"+kind, "zone_name", "name")
	}
}

// putRecord puts an A, AAAA or CNAME record set.
func putRecord(kind string) func(t *changeTranslation, id string) error {
	return func(t *changeTranslation, id string) error {
		b := map[string]any{"id": id, "name": lastName(id), "type": typeZone + "/" + kind, "properties": map[string]any{}}
		op := t.op(OpPut, id, b)
		p := props(b)
		if n, ok := t.get("ttl").num(); ok {
			p["ttl"] = n
		}
		zone := t.get("zone_name").str()
		name := lastName(id)
		fqdn := zone + "."
		if name != "@" {
			fqdn = name + "." + zone + "."
		}
		p["fqdn"] = strings.ToLower(fqdn)
		p["isAutoRegistered"] = false
		switch kind {
		case "A", "AAAA":
			member, field := "aRecords", "ipv4Address"
			if kind == "AAAA" {
				member, field = "aaaaRecords", "ipv6Address"
			}
			l := []any{}
			for _, ip := range t.get("records").strs() {
				l = append(l, map[string]any{field: ip})
			}
			p[member] = l
			if t.get("records").anyUnknown() {
				op.Unknown = append(op.Unknown, "properties."+member)
			}
		case "CNAME":
			rec := t.get("record")
			if s := rec.str(); s != "" {
				p["cnameRecord"] = map[string]any{"cname": s}
			} else if rec.unknown() {
				p["cnameRecord"] = map[string]any{}
				op.Unknown = append(op.Unknown, "properties.cnameRecord.cname")
			}
		}
		return nil
	}
}

func putInbound(t *changeTranslation, id string) error {
	b := base(id, typeInbound, t, true)
	op := t.op(OpPut, id, b)
	l := []any{}
	for i, c := range t.get("ip_configurations").list() {
		ct := t.sub("ip_configurations", i)
		cfg := map[string]any{}
		if sid, ok := ct.refID("subnet_id"); ok {
			cfg["subnet"] = ref(sid)
		} else {
			cfg["subnet"] = map[string]any{}
			op.Unknown = append(op.Unknown, fmt.Sprintf("properties.ipConfigurations[%d].subnet.id", i))
		}
		method := firstNonEmpty(c.at("private_ip_allocation_method").str(), "Dynamic")
		cfg["privateIpAllocationMethod"] = method
		if ip := c.at("private_ip_address").str(); ip != "" {
			cfg["privateIpAddress"] = ip
		} else {
			// A dynamic address is Azure's choice, made at apply.
			op.Unknown = append(op.Unknown, fmt.Sprintf("properties.ipConfigurations[%d].privateIpAddress", i))
		}
		l = append(l, cfg)
	}
	props(b)["ipConfigurations"] = l
	if t.get("ip_configurations").unknown() {
		op.Unknown = append(op.Unknown, "properties.ipConfigurations")
	}
	return nil
}

func putForwardingRule(t *changeTranslation, id string) error {
	b := map[string]any{"id": id, "name": lastName(id), "type": typeRule, "properties": map[string]any{}}
	op := t.op(OpPut, id, b)
	p := props(b)
	p["domainName"] = t.get("domain_name").str()
	if t.get("domain_name").unknown() {
		op.Unknown = append(op.Unknown, "properties.domainName")
	}
	state := "Enabled"
	if v, ok := t.get("enabled").boolp(); ok && !v {
		state = "Disabled"
	} else if t.get("enabled").unknown() {
		op.Unknown = append(op.Unknown, "properties.forwardingRuleState")
	}
	p["forwardingRuleState"] = state
	l := []any{}
	for i, s := range t.get("target_dns_servers").list() {
		srv := map[string]any{}
		if ip := s.at("ip_address").str(); ip != "" {
			srv["ipAddress"] = ip
		} else if s.at("ip_address").unknown() {
			op.Unknown = append(op.Unknown, fmt.Sprintf("properties.targetDnsServers[%d].ipAddress", i))
		}
		if n, ok := s.at("port").num(); ok {
			srv["port"] = n
		} else {
			srv["port"] = int64(53)
		}
		l = append(l, srv)
	}
	p["targetDnsServers"] = l
	if t.get("target_dns_servers").unknown() {
		op.Unknown = append(op.Unknown, "properties.targetDnsServers")
	}
	return nil
}

// putPrivateEndpoint puts a private endpoint, and its DNS zone group as a
// child. Its NIC and the addresses Azure gives it are known only after
// apply for a new endpoint, unless ip_configuration fixes them.
//
// An update patches what azurerm_private_endpoint manages: azurerm puts
// back the application security groups the endpoint has (its association
// resources set them), so they stay as Azure has them.
func putPrivateEndpoint(t *changeTranslation, id string) error {
	b := base(id, typePE, t, true)
	kind := OpPut
	if t.ch.rc.Change.Actions.Update() {
		kind = OpPatch
	}
	op := t.op(kind, id, b)
	p := props(b)
	setRef(t, op, "subnet_id", "subnet")
	if _, ok := p["subnet"]; !ok {
		return fmt.Errorf("it has no subnet_id")
	}
	auto, manual := []any{}, []any{}
	var target string
	for i, c := range t.get("private_service_connection").list() {
		ct := t.sub("private_service_connection", i)
		name := c.at("name").str()
		if name == "" {
			return fmt.Errorf("private_service_connection block %d has no name", i)
		}
		cp := map[string]any{"groupIds": anyList(c.at("subresource_names").strs())}
		isManual, _ := c.at("is_manual_connection").boolp()
		list := "privateLinkServiceConnections"
		if isManual {
			list = "manualPrivateLinkServiceConnections"
		}
		if tid, ok := ct.refID("private_connection_resource_id"); ok {
			cp["privateLinkServiceId"] = tid
			target = tid
		} else if alias := c.at("private_connection_resource_alias").str(); alias != "" {
			cp["privateLinkServiceId"] = alias
		} else {
			op.Unknown = append(op.Unknown, fmt.Sprintf("properties.%s[0].properties.privateLinkServiceId", list))
		}
		if isManual {
			// A manual connection waits for the resource owner's approval.
			cp["privateLinkServiceConnectionState"] = map[string]any{"status": "Pending", "description": c.at("request_message").str(), "actionsRequired": "None"}
			cp["requestMessage"] = c.at("request_message").str()
		} else {
			cp["privateLinkServiceConnectionState"] = map[string]any{"status": "Approved", "description": "Auto-Approved", "actionsRequired": "None"}
		}
		conn := map[string]any{"name": name, "id": id + "/privateLinkServiceConnections/" + name, "type": typePEConnection, "properties": cp}
		if isManual {
			manual = append(manual, conn)
		} else {
			auto = append(auto, conn)
		}
	}
	p["privateLinkServiceConnections"] = auto
	p["manualPrivateLinkServiceConnections"] = manual
	if s := t.get("custom_network_interface_name").str(); s != "" {
		p["customNetworkInterfaceName"] = s
	}
	ipcs := []any{}
	static := map[string]string{} // member name → address
	for _, c := range t.get("ip_configuration").list() {
		ip := c.at("private_ip_address").str()
		member := firstNonEmpty(c.at("member_name").str(), c.at("subresource_name").str())
		ipcs = append(ipcs, map[string]any{"name": c.at("name").str(), "properties": map[string]any{
			"groupId": c.at("subresource_name").str(), "memberName": member, "privateIPAddress": ip}})
		if ip != "" && member != "" {
			static[strings.ToLower(member)] = ip
		}
	}
	p["ipConfigurations"] = ipcs
	// The NIC: known for an endpoint that exists and is not replaced.
	nics := []any{}
	for _, n := range t.get("network_interface").list() {
		if s := n.at("id").str(); s != "" {
			nics = append(nics, ref(s))
		}
	}
	p["networkInterfaces"] = nics
	if len(nics) == 0 {
		op.Unknown = append(op.Unknown, "properties.networkInterfaces")
	}
	dns, known := customDNSConfigs(t, target, static)
	p["customDnsConfigs"] = dns
	if !known {
		op.Unknown = append(op.Unknown, "properties.customDnsConfigs")
	}
	// The DNS zone group is a child resource of its own.
	for i, g := range t.get("private_dns_zone_group").list() {
		gt := t.sub("private_dns_zone_group", i)
		name := g.at("name").str()
		if name == "" {
			return fmt.Errorf("private_dns_zone_group block %d has no name", i)
		}
		gid := id + "/privateDnsZoneGroups/" + name
		gb := map[string]any{"id": gid, "name": name, "type": typePEZoneGroup, "properties": map[string]any{}}
		gop := t.op(OpPut, gid, gb)
		zones, all := gt.refIDs("private_dns_zone_ids")
		if !all {
			gop.Unknown = append(gop.Unknown, "properties.privateDnsZoneConfigs")
		}
		records := zoneConfigRecords(g)
		cfgs := []any{}
		for _, z := range zones {
			zname := lastName(z)
			zc := map[string]any{"privateDnsZoneId": z}
			if rs, ok := records[strings.ToLower(z)]; ok {
				zc["recordSets"] = rs
			} else {
				zc["recordSets"] = []any{}
				gop.Unknown = append(gop.Unknown, "properties.privateDnsZoneConfigs.properties.recordSets")
			}
			cfgs = append(cfgs, map[string]any{"name": strings.ReplaceAll(zname, ".", "-"), "properties": zc})
		}
		props(gb)["privateDnsZoneConfigs"] = cfgs
	}
	if acts := t.ch.rc.Change.Actions; acts.Create() || acts.Replace() {
		zoneGroupRecords(t, target, static)
	}
	if t.ch.rc.Change.Actions.Update() {
		// Zone groups the configuration removed are deleted.
		after := map[string]bool{}
		for _, g := range t.get("private_dns_zone_group").list() {
			after[strings.ToLower(g.at("name").str())] = true
		}
		for _, g := range t.ch.before.at("private_dns_zone_group").list() {
			if n := g.at("name").str(); n != "" && !after[strings.ToLower(n)] {
				t.op(OpDelete, id+"/privateDnsZoneGroups/"+n, nil)
			}
		}
	}
	return nil
}

// customDNSConfigs are the FQDNs and addresses of an endpoint: those the
// plan knows (an endpoint that exists), or, for a registry endpoint with
// static ip_configuration addresses, the registry's hosts by member name.
func customDNSConfigs(t *changeTranslation, target string, static map[string]string) ([]any, bool) {
	cd := t.get("custom_dns_configs")
	if !cd.anyUnknown() && len(cd.list()) > 0 {
		out := []any{}
		for _, c := range cd.list() {
			out = append(out, map[string]any{"fqdn": c.at("fqdn").str(), "ipAddresses": anyList(c.at("ip_addresses").strs())})
		}
		return out, true
	}
	if len(static) == 0 || !strings.Contains(strings.ToLower(target), "/providers/microsoft.containerregistry/registries/") {
		return []any{}, false
	}
	reg := strings.ToLower(lastName(target))
	suffix := t.c.opts.cloud().RegistrySuffix
	out := []any{}
	covered := true
	for _, member := range slices.Sorted(maps.Keys(static)) {
		var fqdn string
		switch {
		case member == "registry":
			fqdn = reg + "." + suffix
		case strings.HasPrefix(member, "registry_data_"):
			fqdn = reg + "." + strings.TrimPrefix(member, "registry_data_") + ".data." + suffix
		default:
			covered = false
			continue
		}
		out = append(out, map[string]any{"fqdn": fqdn, "ipAddresses": []any{static[member]}})
	}
	return out, covered
}

// zoneConfigRecords are the record sets of a zone group's zones, by zone
// id, as the plan knows them (an endpoint that exists).
func zoneConfigRecords(g val) map[string][]any {
	out := map[string][]any{}
	for _, z := range g.at("private_dns_zone_configs").list() {
		if z.anyUnknown() {
			continue
		}
		zid := z.at("private_dns_zone_id").str()
		rs := []any{}
		for _, r := range z.at("record_sets").list() {
			e := map[string]any{"recordType": r.at("type").str(), "recordSetName": r.at("name").str(), "fqdn": r.at("fqdn").str(),
				"provisioningState": "Succeeded", "ipAddresses": anyList(r.at("ip_addresses").strs())}
			if n, ok := r.at("ttl").num(); ok {
				e["ttl"] = n
			}
			rs = append(rs, e)
		}
		if zid != "" {
			out[strings.ToLower(zid)] = rs
		}
	}
	return out
}

// zoneGroupRecordIDs are the ids of the A records a private endpoint's DNS
// zone groups wrote, as its state lists them.
func zoneGroupRecordIDs(v val) []string {
	var out []string
	for _, z := range v.at("private_dns_zone_configs").list() {
		zid := z.at("private_dns_zone_id").str()
		if !validID(zid) {
			continue
		}
		for _, r := range z.at("record_sets").list() {
			if n := r.at("name").str(); n != "" && strings.EqualFold(firstNonEmpty(r.at("type").str(), "A"), "A") {
				out = append(out, zid+"/A/"+n)
			}
		}
	}
	return out
}

// zoneGroupRecords puts the A records a new (or replaced) endpoint's zone
// group writes: the records its state listed, and for a registry the login
// server's record in its private link zone. Their addresses are the new
// endpoint's, known only after apply unless ip_configuration fixes them.
func zoneGroupRecords(t *changeTranslation, target string, static map[string]string) {
	zones, _ := t.refIDs("private_dns_zone_group", 0, "private_dns_zone_ids")
	if len(t.get("private_dns_zone_group").list()) == 0 {
		return
	}
	names := map[string]map[string]bool{} // zone id (lower) → record names
	zoneByKey := map[string]string{}
	add := func(zone, name string) {
		k := strings.ToLower(zone)
		zoneByKey[k] = zone
		if names[k] == nil {
			names[k] = map[string]bool{}
		}
		names[k][strings.ToLower(name)] = true
	}
	wanted := map[string]bool{}
	for _, z := range zones {
		wanted[strings.ToLower(z)] = true
	}
	for _, id := range zoneGroupRecordIDs(t.ch.before) {
		zone := parentID(id)
		if wanted[strings.ToLower(zone)] {
			add(zone, lastName(id))
		}
	}
	isRegistry := strings.Contains(strings.ToLower(target), "/providers/microsoft.containerregistry/registries/")
	reg := strings.ToLower(lastName(target))
	plz := t.c.opts.cloud().PrivateLinkZone
	for _, z := range zones {
		if isRegistry && strings.EqualFold(lastName(z), plz) {
			add(z, reg)
			for member := range static {
				if strings.HasPrefix(member, "registry_data_") {
					add(z, reg+"."+strings.TrimPrefix(member, "registry_data_")+".data")
				}
			}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(names)) {
		zone := zoneByKey[k]
		for _, name := range slices.Sorted(maps.Keys(names[k])) {
			id := zone + "/A/" + name
			b := map[string]any{"id": id, "name": name, "type": typeZone + "/A", "properties": map[string]any{
				"ttl": int64(10), "fqdn": name + "." + strings.ToLower(lastName(zone)) + ".", "isAutoRegistered": false}}
			op := t.op(OpPut, id, b)
			ip := ""
			if isRegistry {
				switch {
				case name == reg:
					ip = static["registry"]
				case strings.HasPrefix(name, reg+".") && strings.HasSuffix(name, ".data"):
					ip = static["registry_data_"+strings.TrimSuffix(strings.TrimPrefix(name, reg+"."), ".data")]
				}
			}
			if ip != "" {
				props(b)["aRecords"] = []any{map[string]any{"ipv4Address": ip}}
			} else {
				props(b)["aRecords"] = []any{}
				op.Unknown = append(op.Unknown, "properties.aRecords")
			}
		}
	}
}

func zoneLinkID(t *changeTranslation) (string, error) {
	return t.rgID(typeZoneLink, "private_dns_zone_name", "name")
}

func putZone(t *changeTranslation, id string) error {
	b := base(id, typeZone, t, true)
	b["location"] = "global"
	t.op(OpPut, id, b)
	return nil
}

func putResolver(t *changeTranslation, id string) error {
	b := base(id, typeResolver, t, true)
	op := t.op(OpPut, id, b)
	setRef(t, op, "virtual_network_id", "virtualNetwork")
	return nil
}

func putOutbound(t *changeTranslation, id string) error {
	b := base(id, typeOutbound, t, true)
	op := t.op(OpPut, id, b)
	setRef(t, op, "subnet_id", "subnet")
	return nil
}

func putRuleset(t *changeTranslation, id string) error {
	b := base(id, typeRuleset, t, true)
	op := t.op(OpPut, id, b)
	ids, all := t.refIDs("private_dns_resolver_outbound_endpoint_ids")
	l := []any{}
	for _, x := range ids {
		l = append(l, ref(x))
	}
	props(b)["dnsResolverOutboundEndpoints"] = l
	if !all {
		op.Unknown = append(op.Unknown, "properties.dnsResolverOutboundEndpoints")
	}
	return nil
}

func putRulesetLink(t *changeTranslation, id string) error {
	b := map[string]any{"id": id, "name": lastName(id), "type": typeRulesetLink, "properties": map[string]any{}}
	op := t.op(OpPut, id, b)
	setRef(t, op, "virtual_network_id", "virtualNetwork")
	return nil
}

// delPrivateEndpoint: deleting the endpoint deletes its zone group and the
// records the group wrote.
func delPrivateEndpoint(t *changeTranslation, id string) error {
	t.op(OpDelete, id, nil)
	for _, r := range zoneGroupRecordIDs(t.cur) {
		t.op(OpDelete, r, nil)
	}
	return nil
}

// putPEASGAssociation: the private endpoint is a member of the application
// security group after apply, beside the groups it has now (azurerm reads
// the endpoint's groups and puts them back with this one).
func putPEASGAssociation(t *changeTranslation, id string) error {
	op := t.op(OpPatch, id, map[string]any{})
	edit := &MemberEdit{Path: "properties.applicationSecurityGroups"}
	op.Members = edit
	if asg, ok := t.refID("application_security_group_id"); ok {
		edit.Add = []string{asg}
	} else {
		op.Unknown = append(op.Unknown, edit.Path)
	}
	return nil
}

// delPEASGAssociation: the endpoint leaves the group; its other groups
// stay.
func delPEASGAssociation(t *changeTranslation, id string) error {
	op := t.op(OpPatch, id, map[string]any{})
	edit := &MemberEdit{Path: "properties.applicationSecurityGroups"}
	op.Members = edit
	if asg, ok := t.refID("application_security_group_id"); ok {
		edit.Remove = []string{asg}
	} else {
		op.Unknown = append(op.Unknown, edit.Path)
	}
	return nil
}
