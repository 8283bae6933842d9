package paimon

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/lakecat/lakecat/table"
)

// optionsJSON is the JSON encoding of Options: the time zone by its IANA
// name.
type optionsJSON struct {
	SchemaID *int64 `json:"schema-id,omitempty"`
	Branch   string `json:"branch,omitempty"`
	Raw      bool   `json:"raw,omitempty"`
	TimeZone string `json:"time-zone,omitempty"`
}

// MarshalJSON encodes the options for a [table.Unit], the time zone by its
// name (time.Location.String: an IANA name, "UTC", or "Local", which names
// the zone of the machine that decodes it).
func (o Options) MarshalJSON() ([]byte, error) {
	j := optionsJSON{SchemaID: o.SchemaID, Branch: o.Branch, Raw: o.Raw}
	if o.TimeZone != nil {
		j.TimeZone = o.TimeZone.String()
	}
	return json.Marshal(j)
}

// UnmarshalJSON decodes what [Options.MarshalJSON] writes; a time zone
// time.LoadLocation does not know is [table.ErrInvalidUnit].
func (o *Options) UnmarshalJSON(b []byte) error {
	var j optionsJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return fmt.Errorf("paimon: options: %w: %w", table.ErrInvalidUnit, err)
	}
	*o = Options{SchemaID: j.SchemaID, Branch: j.Branch, Raw: j.Raw}
	if j.TimeZone != "" {
		loc, err := time.LoadLocation(j.TimeZone)
		if err != nil {
			return fmt.Errorf("paimon: options: %w: time zone: %w", table.ErrInvalidUnit, err)
		}
		o.TimeZone = loc
	}
	return nil
}
