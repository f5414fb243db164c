package doctor

import (
	"net/url"
	"strings"
)

// ReplicaTimeURL is the address whose Date header the clock can be
// compared with when serve has no ACME directory: the S3 server of an
// s3:// replica (its ?endpoint=, or AWS's); "" for no replica or a file://
// one.
func ReplicaTimeURL(replica string) string {
	u, err := url.Parse(replica)
	if err != nil || u.Scheme != "s3" {
		return ""
	}
	ep := u.Query().Get("endpoint")
	if ep == "" {
		return "https://s3.amazonaws.com/"
	}
	if !strings.Contains(ep, "://") {
		ep = "https://" + ep
	}
	e, err := url.Parse(ep)
	if err != nil || e.Host == "" {
		return ""
	}
	return e.Scheme + "://" + e.Host + "/"
}
