// Package azure is the provider's only door to Azure Resource Manager besides
// the gather readers: credentials, SDK clients per subscription, the
// read-only guard, retries, and the snapshot transport that replays or
// records ARM answers.
package azure

import (
	"fmt"
	"strings"
	"sync"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/arm"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/cloud"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/authorization/armauthorization/v2"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/compute/armcompute/v8"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/containerregistry/armcontainerregistry/v2"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/containerservice/armcontainerservice/v8"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/dnsresolver/armdnsresolver"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/privatedns/armprivatedns"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/resourcegraph/armresourcegraph"
)

// CredentialSource creates the token credential. It is called at most once,
// on the first client that needs it, so that validate, a plan without data
// sources and snapshot mode never touch a credential.
type CredentialSource func() (azcore.TokenCredential, error)

// Options configure Clients.
type Options struct {
	// Cloud is the ARM and Entra endpoints (public, usgovernment, china).
	Cloud cloud.Configuration
	// Credential creates the credential on first use.
	Credential CredentialSource
	// Transport replaces the HTTP client (snapshot replay or record); nil
	// means the SDK's default.
	Transport policy.Transporter
	// ApplicationID goes into the User-Agent (e.g. "pullpath/1.2.3").
	ApplicationID string
	// Retry configures retries; the zero value means the SDK defaults.
	Retry policy.RetryOptions
	// PerCallPolicies run once per operation, before retries.
	PerCallPolicies []policy.Policy
	// PerRetryPolicies run on every try (the read-only guard goes here so
	// that nothing can slip past it on a retry).
	PerRetryPolicies []policy.Policy
}

// Clients hands out SDK client factories per subscription, created on demand
// and reused: hubs, DNS zones and registries often live in other
// subscriptions than the cluster.
type Clients struct {
	opts Options

	credOnce sync.Once
	cred     azcore.TokenCredential
	credErr  error

	mu        sync.Mutex
	factories map[string]any // key: kind + "/" + lower-case subscription
}

// NewClients returns a client set; no credential is created yet.
func NewClients(opts Options) *Clients {
	return &Clients{opts: opts, factories: map[string]any{}}
}

// Credential returns the credential, creating it on first use.
func (c *Clients) Credential() (azcore.TokenCredential, error) {
	c.credOnce.Do(func() {
		if c.opts.Credential == nil {
			c.credErr = fmt.Errorf("no Azure credential is configured: set the provider's authentication arguments (or ARM_* environment variables), or use snapshot_file to work offline")
			return
		}
		c.cred, c.credErr = c.opts.Credential()
	})
	return c.cred, c.credErr
}

// ARMOptions are the client options every SDK client gets.
func (c *Clients) ARMOptions() *arm.ClientOptions {
	return &arm.ClientOptions{
		ClientOptions: policy.ClientOptions{
			Cloud:            c.opts.Cloud,
			Transport:        c.opts.Transport,
			Retry:            c.opts.Retry,
			Telemetry:        policy.TelemetryOptions{ApplicationID: c.opts.ApplicationID},
			PerCallPolicies:  c.opts.PerCallPolicies,
			PerRetryPolicies: c.opts.PerRetryPolicies,
		},
		// The provider only reads: it must never register resource providers
		// in a user's subscription as a side effect.
		DisableRPRegistration: true,
	}
}

func factory[T any](c *Clients, kind, subscription string, create func(string, azcore.TokenCredential, *arm.ClientOptions) (T, error)) (T, error) {
	var zero T
	subscription = strings.TrimSpace(subscription)
	if subscription == "" {
		return zero, fmt.Errorf("no subscription id for %s clients: pass a full resource id or set subscription_id (ARM_SUBSCRIPTION_ID)", kind)
	}
	key := kind + "/" + strings.ToLower(subscription)
	c.mu.Lock()
	defer c.mu.Unlock()
	if f, ok := c.factories[key].(T); ok {
		return f, nil
	}
	cred, err := c.Credential()
	if err != nil {
		return zero, err
	}
	f, err := create(subscription, cred, c.ARMOptions())
	if err != nil {
		return zero, fmt.Errorf("creating %s clients for subscription %s: %w", kind, subscription, err)
	}
	c.factories[key] = f
	return f, nil
}

// Network returns the Microsoft.Network clients for a subscription.
func (c *Clients) Network(subscription string) (*armnetwork.ClientFactory, error) {
	return factory(c, "network", subscription, armnetwork.NewClientFactory)
}

// Compute returns the Microsoft.Compute clients for a subscription.
func (c *Clients) Compute(subscription string) (*armcompute.ClientFactory, error) {
	return factory(c, "compute", subscription, armcompute.NewClientFactory)
}

// ContainerService returns the AKS clients for a subscription.
func (c *Clients) ContainerService(subscription string) (*armcontainerservice.ClientFactory, error) {
	return factory(c, "containerservice", subscription, armcontainerservice.NewClientFactory)
}

// ContainerRegistry returns the ACR clients for a subscription.
func (c *Clients) ContainerRegistry(subscription string) (*armcontainerregistry.ClientFactory, error) {
	return factory(c, "containerregistry", subscription, armcontainerregistry.NewClientFactory)
}

// PrivateDNS returns the private DNS clients for a subscription.
func (c *Clients) PrivateDNS(subscription string) (*armprivatedns.ClientFactory, error) {
	return factory(c, "privatedns", subscription, armprivatedns.NewClientFactory)
}

// DNSResolver returns the DNS private resolver clients for a subscription.
func (c *Clients) DNSResolver(subscription string) (*armdnsresolver.ClientFactory, error) {
	return factory(c, "dnsresolver", subscription, armdnsresolver.NewClientFactory)
}

// Authorization returns the RBAC clients for a subscription.
func (c *Clients) Authorization(subscription string) (*armauthorization.ClientFactory, error) {
	return factory(c, "authorization", subscription, armauthorization.NewClientFactory)
}

// ResourceGraph returns the Azure Resource Graph client. It is not bound to
// a subscription: a query that names no subscription runs at tenant scope,
// over every subscription the identity can read.
func (c *Clients) ResourceGraph() (*armresourcegraph.Client, error) {
	return factory(c, "resourcegraph", "tenant", func(_ string, cred azcore.TokenCredential, o *arm.ClientOptions) (*armresourcegraph.Client, error) {
		return armresourcegraph.NewClient(cred, o)
	})
}
