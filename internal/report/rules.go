// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package report

import (
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// TroubleshootingURL is the troubleshooting guide, where every code has a
// section (help URIs point there).
const TroubleshootingURL = "https://github.com/pullpath/terraform-provider-pullpath/blob/main/docs/guides/troubleshooting.md"

// helpURI is the code's section of the troubleshooting guide: the anchor
// GitHub gives the heading "### CODE", or "### CODE *(unverifying)*" for
// the codes marked (u) in the catalogue (evidence codes make the verdict
// unverified by their condition and carry no mark).
func helpURI(code model.Code) string {
	anchor := strings.ToLower(string(code))
	if info := model.Catalogue[code]; info.Unverifying && info.Condition != model.ConditionEvidence {
		anchor += "-unverifying"
	}
	return TroubleshootingURL + "#" + anchor
}
