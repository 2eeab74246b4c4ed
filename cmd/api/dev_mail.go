package main

import "net/http"

// devMailLimit is how many messages the development mailbox lists.
const devMailLimit = 50

// handleDevMail lists the development mailbox's messages to ?to=ADDRESS,
// newest first. Development only: the route does not exist in production.
func handleDevMail(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		to := r.URL.Query().Get("to")
		if to == "" {
			writeError(w, r, d.Log, errStatus(http.StatusBadRequest, "The query parameter to (an email address) is required"))
			return
		}
		list, err := d.App.Queries.DevMail.Handle(r.Context(), to, devMailLimit)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		encode(w, http.StatusOK, list)
	}
}
