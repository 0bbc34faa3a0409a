// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
)

// The subscriptions that hold the private DNS zones have one name in every
// data source, zone_subscription_ids (the public interface's name, as in
// pullpath_private_dns_links). pullpath_verification also accepts its
// former name, dns_zone_subscription_ids: same meaning, a deprecation
// warning that names the replacement, and an error when both are set, so
// that a configuration never says two things about one list.

// zoneSubscriptionsDeprecation is the warning a configuration that uses
// dns_zone_subscription_ids gets (the framework attaches it to the
// argument at validate time).
const zoneSubscriptionsDeprecation = "dns_zone_subscription_ids is deprecated: rename it to zone_subscription_ids, which " +
	"means the same (the subscriptions searched for private DNS zones instead of asking Azure Resource Graph) and is " +
	"the name pullpath_private_dns_links uses. The old name will be removed in a future major version."

// validateZoneSubscriptionNames adds an error on dns_zone_subscription_ids
// when zone_subscription_ids is set too. Set means not null: an unknown
// value is a value the configuration gives.
func validateZoneSubscriptionNames(m verificationModel, diags *diag.Diagnostics) {
	if m.ZoneSubscriptionIDs.IsNull() || m.DNSZoneSubIDs.IsNull() {
		return
	}
	diags.AddAttributeError(path.Root("dns_zone_subscription_ids"), "Both zone_subscription_ids and dns_zone_subscription_ids are set",
		"dns_zone_subscription_ids is the deprecated name of zone_subscription_ids: the two are one list, so set only "+
			"zone_subscription_ids, with every subscription that holds private DNS zones, and delete dns_zone_subscription_ids.")
}

// zoneSubscriptionIDs returns the subscriptions of whichever name is set
// (validateZoneSubscriptionNames allows only one).
func zoneSubscriptionIDs(ctx context.Context, m verificationModel) []string {
	if !m.ZoneSubscriptionIDs.IsNull() {
		subs, _ := knownStrings(ctx, m.ZoneSubscriptionIDs)
		return subs
	}
	subs, _ := knownStrings(ctx, m.DNSZoneSubIDs)
	return subs
}
