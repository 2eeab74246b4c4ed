package query

import "github.com/a2e-automation/app/internal/pages"

// PageReader reads the public pages (pages.Store).
type PageReader interface {
	Get(slug string) (pages.Page, error)
}

// PageHandler reads one public page (GET /api/pages/{slug}).
type PageHandler struct{ pages PageReader }

// Handle is page slug.
func (h PageHandler) Handle(slug string) (pages.Page, error) { return h.pages.Get(slug) }
