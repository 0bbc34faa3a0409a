// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gather

import (
	"context"
	"slices"
	"sort"
	"sync"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// zoneSearch is the Resource Graph search for private DNS zone links of a
// verification, asked as early as the facts allow. Which zones answer the
// nodes depends on the VNets whose Azure DNS they use, known only once the
// nodes' DNS settings and forwarding rulesets are read; which zones can
// hold a name a pull resolves is known from the registry's cloud alone
// (model.Clouds: privatelink.azurecr.io and the other clouds' equivalents
// lie in the registry suffix's domain) or from the declared hosts. So the
// search asks for the links of every zone in those domains (zonesNamedLinks)
// as soon as it is known to be needed, beside the reads of the cluster's
// nodes and network, and linkedZones filters its rows by the VNets once
// they are known: the same zones the question "which zones are linked to
// these VNets" finds, without waiting for the VNets.
//
// It is sent early only when the verification will send it: the zone
// subscriptions are not named, a private zone can answer a registry name
// (privateAnswerPossible, known once the registry is read), and a node VNet
// uses Azure DNS by its own settings (read with the closure); only the
// nodes' own DNS settings (scale sets, NICs) can still make it unneeded,
// and then settle lists it among the speculative reads.
type zoneSearch struct {
	// domains are the zone name domains asked for (model.ZoneDomain),
	// sorted; empty when the verification never asks Resource Graph.
	domains []string

	mu sync.Mutex
	// state: pending until known (decided) or close (cancelled).
	state   searchState
	private bool
	subnets []model.ResourceID
	ready   chan struct{} // closed by known or close
}

type searchState int

const (
	searchPending searchState = iota
	searchStarted
	searchSkipped
)

// newZoneSearch prepares the search of a request: the domains of the
// names a pull can resolve (every cloud's registry suffix for an Azure
// Container Registry, whose cloud the login server tells; the declared
// hosts' domains otherwise). No domain, no search: the zone subscriptions
// are named (Resource Graph is not asked), or every declared host has an
// address.
func newZoneSearch(q VerificationRequest) *zoneSearch {
	s := &zoneSearch{ready: make(chan struct{})}
	if len(q.ZoneSubscriptionIDs) > 0 {
		return s
	}
	add := func(name string) {
		if d := model.ZoneDomain(name); d != "" && !slices.Contains(s.domains, d) {
			s.domains = append(s.domains, d)
		}
	}
	if !q.RegistryID.IsZero() {
		if q.Cloud.RegistrySuffix != "" {
			add(q.Cloud.RegistrySuffix)
		} else {
			for _, c := range model.Clouds {
				add(c.RegistrySuffix)
			}
		}
	}
	if f := (model.Facts{Declared: q.Declared, Cloud: q.Cloud}); q.Declared != nil && privateAnswerPossible(&f) {
		for _, n := range dnsNames(&f) {
			add(n)
		}
	}
	sort.Strings(s.domains)
	return s
}

// known gives the search what decides whether it is needed: whether a
// private zone can answer a registry name, and the node subnets.
func (s *zoneSearch) known(private bool, subnets []model.ResourceID) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state == searchPending && s.ready != nil {
		s.private, s.subnets = private, subnets
		close(s.ready)
		s.ready = nil
	}
}

// close ends the chance to start early (the verification is past the
// point where it would have waited for the search).
func (s *zoneSearch) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state == searchPending {
		s.state = searchSkipped
	}
	if s.ready != nil {
		close(s.ready)
		s.ready = nil
	}
}

// run sends the search once it is known to be needed: a private zone can
// answer and a node VNet uses Azure DNS by its own settings.
func (s *zoneSearch) run(ctx context.Context, r *Reader) {
	s.mu.Lock()
	ready := s.ready
	s.mu.Unlock()
	if len(s.domains) == 0 {
		return
	}
	if ready != nil {
		<-ready
	}
	s.mu.Lock()
	private, subnets := s.private, s.subnets
	pending := s.state == searchPending
	s.mu.Unlock()
	if !pending || !private {
		return
	}
	azureDNS := false
	for _, vnet := range vnetsOf(subnets) {
		if v, err := r.vnetGet(ctx, vnet); err == nil && len(v.DNSServers) == 0 {
			azureDNS = true
		}
	}
	if !azureDNS {
		return
	}
	s.mu.Lock()
	start := s.state == searchPending
	if start {
		s.state = searchStarted
	}
	s.mu.Unlock()
	if start {
		_, _ = r.zonesNamedLinks(ctx, s.domains)
	}
}

// covers reports whether the search finds every zone that can be named
// like one of names: each name lies in one of its domains.
func (s *zoneSearch) covers(names []string) bool {
	if len(s.domains) == 0 {
		return false
	}
	for _, n := range names {
		if !slices.Contains(s.domains, model.ZoneDomain(n)) {
			return false
		}
	}
	return true
}

// settle ends the chance to start early and reports whether the search was
// sent although the verification did not need it (no VNet's Azure DNS
// answers the nodes: their scale sets or NICs name other servers).
func (s *zoneSearch) settle(d *model.DNS) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state == searchPending {
		s.state = searchSkipped
	}
	return s.state == searchStarted && d.LinkSearch.Query.IsZero()
}

// vnetsOf are the VNets of the subnets, each once.
func vnetsOf(subnets []model.ResourceID) []model.ResourceID {
	var out []model.ResourceID
	for _, s := range subnets {
		if v := s.Parent(); !v.IsZero() {
			out = appendUniqueID(out, v)
		}
	}
	return out
}

// zoneLinkLookup answers which zones Resource Graph shows linked to the
// VNets whose Azure DNS answers the nodes, for names a pull resolves:
// from the search by zone domain when it covers the names, else (a CNAME
// target in another domain) by asking for the VNets' links.
type zoneLinkLookup struct {
	search *zoneSearch
	vnets  []model.ResourceID
}

func (l *zoneLinkLookup) zones(ctx context.Context, r *Reader, names []string) ([]model.ResourceID, error) {
	if l.search.covers(names) {
		links, err := r.zonesNamedLinks(ctx, l.search.domains)
		if err != nil {
			return nil, err
		}
		return links.linkedTo(vnetKeys(l.vnets)), nil
	}
	return r.ZonesLinkedTo(ctx, l.vnets)
}
