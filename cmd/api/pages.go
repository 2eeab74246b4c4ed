package main

import (
	"errors"
	"log/slog"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/a2e-automation/app/internal/config"
	"github.com/a2e-automation/app/internal/pages"
)

// handlePage serves a public page: contact, privacy and terms from
// PAGES_DIR, the desktop API guide built in. Public: the landing page's
// footer links to the first three, the API Keys page and the OpenAPI to the guide.
func handlePage(d Deps) http.HandlerFunc {
	type response struct {
		Slug     string `json:"slug"`
		Title    string `json:"title"`
		Markdown string `json:"markdown"`
	}
	return func(w http.ResponseWriter, r *http.Request) {
		slug := chi.URLParam(r, "slug")
		p, err := d.App.Queries.Page.Handle(slug)
		if err != nil {
			if !errors.Is(err, pages.ErrNoSuchPage) {
				// A known page the operator's files do not provide.
				d.Log.ErrorContext(r.Context(), "page unavailable", "slug", slug, "requestId", requestID(r.Context()), "err", err)
			}
			writeError(w, r, d.Log, errStatus(http.StatusNotFound, "No such page"))
			return
		}
		encode(w, http.StatusOK, response{Slug: p.Slug, Title: p.Title, Markdown: p.Markdown})
	}
}

// checkPages warns at start-up about a page PAGES_DIR does not provide
// (each would answer 404 until it does); the pages are read at each
// request, so a fix needs no restart.
func checkPages(cfg config.Config, log *slog.Logger, s *pages.Store) {
	for _, slug := range pages.Slugs() {
		if _, err := s.Get(slug); err != nil {
			log.Warn("page unavailable", "dir", cfg.PagesDir, "slug", slug, "err", err)
		}
	}
}
