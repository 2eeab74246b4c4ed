package ratelimit

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/a2e-automation/app/internal/testing/redistest"
)

// Both stores answer a burst the same way: Rate events, then refusals with
// the wait for the next one.
func TestMemoryAndRedisAgree(t *testing.T) {
	client, err := NewRedisClient(redistest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	l := Limit{Name: "test", Rate: 5, Period: time.Minute}
	for name, store := range map[string]Limiter{"memory": NewMemory(), "redis": NewRedis(client)} {
		t.Run(name, func(t *testing.T) {
			key := fmt.Sprintf("burst-%d", time.Now().UnixNano())
			for i := range 7 {
				d, err := store.Allow(context.Background(), key, l)
				if err != nil {
					t.Fatal(err)
				}
				if i < 5 {
					if !d.Allowed || d.Remaining != 4-i || d.Limit != 5 || d.ResetAfter <= 0 || d.ResetAfter > time.Minute {
						t.Fatalf("event %d: %+v", i+1, d)
					}
					continue
				}
				// One event is let through every Period/Rate = 12 s.
				if d.Allowed || d.Remaining != 0 || d.RetryAfter <= 10*time.Second || d.RetryAfter > 12*time.Second {
					t.Fatalf("event %d past the limit: %+v", i+1, d)
				}
			}
			if d, _ := store.Allow(context.Background(), key+"-other", l); !d.Allowed {
				t.Fatal("another key shares the bucket")
			}
		})
	}
}

func TestMemoryRefillsAndSweeps(t *testing.T) {
	m := NewMemory()
	now := time.Now()
	m.now = func() time.Time { return now }
	l := Limit{Name: "t", Rate: 2, Period: time.Minute}
	for range 3 {
		_, _ = m.Allow(context.Background(), "k", l)
	}
	now = now.Add(30 * time.Second)
	if d, _ := m.Allow(context.Background(), "k", l); !d.Allowed {
		t.Fatalf("after 30 s one event is allowed again: %+v", d)
	}
	now = now.Add(2 * time.Minute)
	_, _ = m.Allow(context.Background(), "other", l)
	if _, kept := m.tat["t:k"]; kept {
		t.Fatal("a full bucket was kept")
	}
}
