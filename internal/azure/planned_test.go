// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package azure

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
)

// emptyingPolicy stands in for the what-if overlay: it answers every GET
// with Azure's answer emptied, as a plan that deletes everything would.
type emptyingPolicy struct{}

func (emptyingPolicy) Do(req *policy.Request) (*http.Response, error) {
	resp, err := req.Next()
	if err != nil || req.Raw().Method != http.MethodGet {
		return resp, err
	}
	_ = resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader([]byte(`{"value":[]}`)))
	return resp, nil
}

// TestPlannedChangesSitAboveTheCacheAndTheRecording: the overlay given
// with WithPlannedChanges answers the reads, while the cache and
// record_file keep what Azure answered (never planned answers).
func TestPlannedChangesSitAboveTheCacheAndTheRecording(t *testing.T) {
	links := "/subscriptions/" + testSub + "/resourceGroups/rg-net/providers/Microsoft.Network/privateDnsZones/privatelink.azurecr.io/virtualNetworkLinks"
	arm := newFakeARM(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"value":[{"id":"` + links + `/link-spoke","name":"link-spoke","properties":{}}]}`))
	})
	dir := t.TempDir()
	s, err := NewSession(Config{SubscriptionID: testSub, RecordFile: filepath.Join(dir, "rec.json"), transport: arm,
		credentialSource: func() (azcore.TokenCredential, error) { return fixedCredential{}, nil }},
		WithPlannedChanges(emptyingPolicy{}))
	if err != nil {
		t.Fatal(err)
	}
	f, _ := s.Clients.PrivateDNS(testSub)
	page, err := f.NewVirtualNetworkLinksClient().NewListPager("rg-net", "privatelink.azurecr.io", nil).NextPage(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Value) != 0 {
		t.Errorf("the overlay's answer is not the session's: %d links", len(page.Value))
	}
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	rec, err := os.ReadFile(filepath.Join(dir, "rec.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(rec), "link-spoke") {
		t.Errorf("the recording lacks the link Azure answered with:\n%s", rec)
	}
	// A second read is the cache's (Azure's answer), again overlaid.
	page, err = f.NewVirtualNetworkLinksClient().NewListPager("rg-net", "privatelink.azurecr.io", nil).NextPage(context.Background())
	if err != nil || len(page.Value) != 0 || s.Requests() != 1 {
		t.Errorf("second read: %d links, %v, %d requests (want 0 links from 1 request)", len(page.Value), err, s.Requests())
	}
}

func TestPlannedChangesErrorNamesTheArgument(t *testing.T) {
	err := PlannedChangesError(os.ErrNotExist)
	var ae *ArgumentError
	if !errors.As(err, &ae) || ae.Argument != "planned_changes_file" || !strings.Contains(err.Error(), "PULLPATH_PLANNED_CHANGES_FILE") {
		t.Errorf("err = %v, want an ArgumentError on planned_changes_file naming its variable", err)
	}
}
