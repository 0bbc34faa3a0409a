// Package snapshot implements the ARM snapshot format v1
// (docs/design/snapshot-format.md): a JSON file that stands in for Azure Resource
// Manager. The provider talks to it through the ordinary SDK clients; only
// the HTTP transport differs.
//
//   - [Parse] and [Load] read and strictly validate a snapshot.
//   - [Replay] is an azcore policy.Transporter that answers ARM requests from
//     a snapshot, following the replay rules exactly (ids, embedded children,
//     collections, role-assignment scopes, actions, faults, latency).
//   - [Recorder] is a policy.Transporter that wraps the live transport and
//     writes what it read into the same format ([Recorder.Flush]).
//
// Wiring, for the engineer who owns the client options:
//
//	opts := &arm.ClientOptions{ClientOptions: policy.ClientOptions{Transport: replay}}
//
// or, when recording, Transport: snapshot.NewRecorder(liveTransport) and a
// Flush at the end of the run. Neither type ever refuses a write on its own
// behalf; the read-only guard (package azure) does that before a request
// reaches any transport.
package snapshot
