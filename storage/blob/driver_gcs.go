//go:build !lakecat_nogcs

package blob

import _ "gocloud.dev/blob/gcsblob" // gs://
