import * as Tabs from '@radix-ui/react-tabs';
import { Lightbulb } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { TutorialCard } from '@/features/tutorials/components/tutorial-card';
import { CATEGORIES, TUTORIALS } from '@/features/tutorials/components/tutorials-data';

export default function TutorialsRoute() {
  // The page shows a spinner first (spec section 2), then its fixed content.
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const frame = requestAnimationFrame(() => setReady(true));
    return () => cancelAnimationFrame(frame);
  }, []);
  if (!ready) return <Spinner label="Loading tutorials" />;

  return (
    <div className="page">
      <h1 className="page-title">Tutorials</h1>
      <section aria-labelledby="featured-heading">
        <h2 id="featured-heading" className="section-title">
          Featured Tutorials
        </h2>
        <div className="grid-3">
          {TUTORIALS.filter((t) => t.featured).map((t) => (
            <TutorialCard key={t.id} tutorial={t} />
          ))}
        </div>
      </section>

      <Card>
        <CardHeader title="Request a Tutorial" action={<Lightbulb size={20} aria-hidden />} />
        <p>Missing a guide? Tell us what you would like to learn next.</p>
        <Button variant="outline">Request Tutorial</Button>
      </Card>

      <Tabs.Root defaultValue="beginner" className="tabs">
        <Tabs.List className="tabs-list" aria-label="Tutorial categories">
          {CATEGORIES.map((c) => (
            <Tabs.Trigger key={c.value} value={c.value} className="tabs-trigger">
              {c.label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        {CATEGORIES.map((c) => (
          <Tabs.Content key={c.value} value={c.value} className="tabs-content">
            <div className="grid-2">
              {TUTORIALS.filter((t) => t.category === c.value).map((t) => (
                <TutorialCard key={t.id} tutorial={t} />
              ))}
            </div>
          </Tabs.Content>
        ))}
      </Tabs.Root>

      <Card>
        <CardHeader title="Resources" />
        <ul className="bullets">
          <li>API documentation on the API Keys page</li>
          <li>Installation guide on the Download page</li>
          <li>Answers to common questions on the Support page</li>
        </ul>
      </Card>
    </div>
  );
}
