import { Clock, PlayCircle } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import type { Tutorial } from './tutorials-data';

/** A tutorial; its button does nothing yet (spec: fixed content). */
export function TutorialCard({ tutorial }: { tutorial: Tutorial }) {
  return (
    <article className="tutorial">
      <div className="tutorial-thumb" aria-hidden>
        <img src={tutorial.thumbnail} alt="" width={48} height={48} />
      </div>
      <div className="tutorial-body">
        <h3 className="tutorial-title">
          {tutorial.title} {tutorial.isNew && <Badge tone="info">New</Badge>}
        </h3>
        <p className="muted">{tutorial.description}</p>
        <div className="tutorial-foot">
          <span className="muted">
            <Clock size={14} aria-hidden /> {tutorial.duration}
          </span>
          <Button size="sm" variant="outline">
            <PlayCircle size={16} aria-hidden /> Watch
          </Button>
        </div>
      </div>
    </article>
  );
}
