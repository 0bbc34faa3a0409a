package planned

import (
	"bytes"
	"fmt"
	"unicode/utf16"
	"unicode/utf8"
)

// The text encodings a plan JSON arrives in. `terraform show -json` writes
// UTF-8; the shell around it may not:
//
//   - Windows PowerShell 5.1 `>` (Out-File's default) writes UTF-16 LE with
//     a byte order mark;
//   - `Out-File -Encoding UTF8` and `Set-Content -Encoding UTF8` in
//     Windows PowerShell write UTF-8 with a byte order mark;
//   - `Out-File -Encoding BigEndianUnicode` writes UTF-16 BE with a mark;
//   - a pipe through a console whose code page is not UTF-8 (437, 850,
//     1252) rewrites every non-ASCII character into that code page: the
//     bytes are no longer UTF-8 and no decoding gives the plan back.
//
//   - PowerShell 7 (v6 and later) writes utf8NoBOM by default, `>`
//     included.
//
// Source: about_Character_Encoding,
// learn.microsoft.com/powershell/module/microsoft.powershell.core/about/about_character_encoding
// (Windows PowerShell 5.1: "Out-File and the redirection operators > and
// >> create UTF-16LE", every Unicode encoding but UTF7 with a BOM;
// PowerShell v6 and later: utf8NoBOM for all text output); about_Redirection and Out-File (PowerShell 5.1),
// learn.microsoft.com/powershell/module/microsoft.powershell.core/about/about_redirection
// and learn.microsoft.com/powershell/module/microsoft.powershell.utility/out-file?view=powershell-5.1
// ("the default encoding is unicode", i.e. UTF-16 LE with a BOM).

// Encoding names the encoding a plan file was decoded from.
type Encoding string

// Encodings the parser decodes.
const (
	EncodingUTF8    Encoding = "UTF-8"
	EncodingUTF8BOM Encoding = "UTF-8 with byte order mark"
	EncodingUTF16LE Encoding = "UTF-16 LE"
	EncodingUTF16BE Encoding = "UTF-16 BE"
)

// writeUTF8Hint is how to write the plan JSON as UTF-8 from the shells
// that do otherwise.
const writeUTF8Hint = "write the file as UTF-8: in Windows PowerShell 5.1 `terraform show -json tfplan | Out-File -Encoding utf8 plan.json` " +
	"(its `>` writes UTF-16), in PowerShell 7 `terraform show -json tfplan > plan.json` (UTF-8 without a byte order mark by default), " +
	"or from cmd.exe or a POSIX shell `terraform show -json tfplan > plan.json`"

var (
	bomUTF8    = []byte{0xef, 0xbb, 0xbf}
	bomUTF16LE = []byte{0xff, 0xfe}
	bomUTF16BE = []byte{0xfe, 0xff}
)

// decodeText returns the plan file as UTF-8 text, without a byte order
// mark, and the encoding it was in. UTF-16 is recognised by its byte order
// mark, or without one by the zero bytes every ASCII character has in it
// (a JSON document starts with "{" or whitespace). Text that decodes to
// something that is not valid Unicode is an error naming the encoding.
func decodeText(data []byte) ([]byte, Encoding, error) {
	switch {
	case bytes.HasPrefix(data, bomUTF8):
		return data[len(bomUTF8):], EncodingUTF8BOM, nil
	case bytes.HasPrefix(data, bomUTF16LE):
		out, err := fromUTF16(data[2:], false)
		return out, EncodingUTF16LE, err
	case bytes.HasPrefix(data, bomUTF16BE):
		out, err := fromUTF16(data[2:], true)
		return out, EncodingUTF16BE, err
	case len(data) >= 4 && data[0] != 0 && data[1] == 0 && data[2] != 0 && data[3] == 0:
		out, err := fromUTF16(data, false)
		return out, EncodingUTF16LE, err
	case len(data) >= 4 && data[0] == 0 && data[1] != 0 && data[2] == 0 && data[3] != 0:
		out, err := fromUTF16(data, true)
		return out, EncodingUTF16BE, err
	}
	return data, EncodingUTF8, nil
}

// fromUTF16 decodes UTF-16 text into UTF-8.
func fromUTF16(b []byte, bigEndian bool) ([]byte, error) {
	enc := EncodingUTF16LE
	if bigEndian {
		enc = EncodingUTF16BE
	}
	if len(b)%2 != 0 {
		return nil, fmt.Errorf("the file starts as %s text but has an odd number of bytes (is it truncated?): %s", enc, writeUTF8Hint)
	}
	units := make([]uint16, len(b)/2)
	for i := range units {
		if bigEndian {
			units[i] = uint16(b[2*i])<<8 | uint16(b[2*i+1])
		} else {
			units[i] = uint16(b[2*i+1])<<8 | uint16(b[2*i])
		}
	}
	out := make([]byte, 0, len(units))
	for i := 0; i < len(units); i++ {
		u := units[i]
		switch {
		case utf16.IsSurrogate(rune(u)):
			if u < 0xdc00 && i+1 < len(units) {
				if r := utf16.DecodeRune(rune(u), rune(units[i+1])); r != utf8.RuneError {
					out = utf8.AppendRune(out, r)
					i++
					continue
				}
			}
			return nil, fmt.Errorf("the file is %s text with a broken character at byte %d (an unpaired surrogate), so it was damaged after it was written: %s", enc, 2*i, writeUTF8Hint)
		case u == 0:
			return nil, fmt.Errorf("the file is %s text with a NUL character at byte %d, which a plan JSON never has: %s", enc, 2*i, writeUTF8Hint)
		default:
			out = utf8.AppendRune(out, rune(u))
		}
	}
	return out, nil
}

// notUTF8Error explains text that is not UTF-8: a plan JSON passed through
// a console code page (the JSON is intact but its non-ASCII characters are
// bytes of another encoding), or a file that is not text at all.
func notUTF8Error(text []byte) error {
	if looksLikeCodePageText(text) {
		off := invalidUTF8Offset(text)
		l, c := lineCol(text, int64(off))
		return fmt.Errorf("not a plan JSON in UTF-8: at line %d, column %d the file has bytes that are not UTF-8 (%s); "+
			"its text was converted to a console code page (such as 437, 850 or 1252) on the way to the file, which changes every non-ASCII character "+
			"and cannot be undone: %s", l, c, hexAround(text, off), writeUTF8Hint)
	}
	return fmt.Errorf("not a plan JSON: the file is binary, not JSON text: %s", showHint)
}

// looksLikeCodePageText: a JSON object whose bytes are nearly all
// printable ASCII, with a few bytes above 0x7f that are not UTF-8.
func looksLikeCodePageText(b []byte) bool {
	t := bytes.TrimSpace(b)
	if len(t) == 0 || t[0] != '{' {
		return false
	}
	high, ctl := 0, 0
	for _, c := range t {
		switch {
		case c >= 0x80:
			high++
		case c < 0x20 && c != '\n' && c != '\r' && c != '\t':
			ctl++
		}
	}
	return ctl == 0 && high*10 < len(t)
}

func invalidUTF8Offset(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(b)
}

// hexAround shows the bytes at off, as a user can find them in a hex view.
func hexAround(b []byte, off int) string {
	end := min(len(b), off+4)
	return fmt.Sprintf("% x", b[off:end])
}
