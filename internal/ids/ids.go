// Package ids reads the ids that arrive in URLs and query strings.
package ids

import "github.com/google/uuid"

// Canonical is id in its canonical form (lower-case, 8-4-4-4-12), and
// whether id is a UUID written that way. uuid.Parse and uuid.Validate also
// take urn:uuid:…, {…} and the form without hyphens, which PostgreSQL's
// uuid type does not all read: such an id reached a query and answered 500
// (issue 31, item 12). Routes answer 404 (a path's id) or 400 (a filter's)
// to anything else.
func Canonical(id string) (string, bool) {
	if len(id) != 36 {
		return "", false
	}
	u, err := uuid.Parse(id)
	if err != nil {
		return "", false
	}
	return u.String(), true
}

// Valid reports whether id is a UUID in the canonical form's layout
// (either case).
func Valid(id string) bool {
	_, ok := Canonical(id)
	return ok
}
