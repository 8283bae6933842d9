package rest

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// Identifier names a table: its namespace levels and its name (the
// TableIdentifier schema of the OpenAPI document).
type Identifier struct {
	Namespace []string `json:"namespace"`
	Name      string   `json:"name"`
}

// ParseIdentifier reads "ns.table" or "a.b.table": the last dot separates
// the table name, the dots before it the namespace levels. Both the
// namespace and the name must be non-empty.
func ParseIdentifier(s string) (Identifier, error) {
	parts := strings.Split(s, ".")
	if len(parts) < 2 {
		return Identifier{}, fmt.Errorf("rest: table identifier %q: want NAMESPACE.TABLE", s)
	}
	for _, p := range parts {
		if p == "" {
			return Identifier{}, fmt.Errorf("rest: table identifier %q: empty namespace level or name", s)
		}
	}
	return Identifier{Namespace: parts[:len(parts)-1], Name: parts[len(parts)-1]}, nil
}

// String returns the dotted form, "a.b.table".
func (id Identifier) String() string {
	return strings.Join(append(append([]string(nil), id.Namespace...), id.Name), ".")
}

// DefaultNamespaceSeparator joins the levels of a multi-level namespace in
// a path segment or query parameter: the unit separator 0x1F (OpenAPI
// document, parameter "namespace"), unless /v1/config overrides
// "namespace-separator".
const DefaultNamespaceSeparator = "\x1f"

var errEmptyNamespace = errors.New("rest: empty namespace")

// encodeNamespace returns the escaped path segment of a namespace: levels
// joined by sep, then percent-encoded ("accounting%1Ftax").
func encodeNamespace(ns []string, sep string) (string, error) {
	if len(ns) == 0 {
		return "", errEmptyNamespace
	}
	for _, l := range ns {
		if l == "" || strings.Contains(l, sep) {
			return "", fmt.Errorf("rest: namespace %q: a level is empty or holds the separator %q", ns, sep)
		}
	}
	return url.PathEscape(strings.Join(ns, sep)), nil
}
