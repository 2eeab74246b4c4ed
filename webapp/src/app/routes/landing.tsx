import { BarChart3, Check, ShieldCheck, Star, Zap } from 'lucide-react';
import { Link } from 'react-router';
import { ButtonLink } from '@/components/ui/button';
import { Logo } from '@/components/ui/logo';
import { LoadError } from '@/components/ui/load-error';
import { Spinner } from '@/components/ui/spinner';
import { usePlans } from '@/features/credits/api/get-plans';
import { useProductName } from '@/lib/app-config';
import { useAuth } from '@/lib/auth';
import { formatCents } from '@/lib/format';
import { paths } from '@/config/paths';

const FEATURES = [
  { icon: Zap, title: 'Automated Listings', text: 'Turn Amazon products into optimised eBay listings in seconds, in bulk.' },
  { icon: BarChart3, title: 'Profit Analytics', text: 'See margins, fees and best sellers at a glance, and price for profit.' },
  { icon: ShieldCheck, title: 'VeRO Protection', text: 'Check brands against eBay VeRO before listing to avoid takedowns.' },
];

const TESTIMONIALS = [
  { name: 'Sarah M.', role: 'eBay PowerSeller', text: 'I list in an afternoon what used to take me a week. The VeRO checks alone saved my account.' },
  { name: 'James T.', role: 'Full-time reseller', text: 'Profit analytics showed me which listings were losing money. My margins are up 20%.' },
  { name: 'Priya K.', role: 'Side-business owner', text: 'Setup took ten minutes, and the desktop software just runs. Support answered within hours.' },
];

function PricingCard() {
  const { data: plans, error, mutate } = usePlans();
  if (!plans && error) return <LoadError what="pricing" onRetry={() => void mutate()} />;
  if (!plans) return <Spinner label="Loading pricing" />;
  const { plan } = plans;
  return (
    <div className="pricing-card">
      <p className="pricing-badge">Premium</p>
      <h3 className="pricing-name">{plan.name}</h3>
      <p className="pricing-price">
        <span className="pricing-amount">{formatCents(plan.priceCents)}</span> / {plan.interval}
      </p>
      <ul className="check-list">
        {plan.features.map((feature) => (
          <li key={feature}>
            <Check size={16} aria-hidden className="check" /> {feature}
          </li>
        ))}
      </ul>
      <ButtonLink to={paths.register} className="btn-block" size="lg">
        Get Started
      </ButtonLink>
    </div>
  );
}

export default function LandingRoute() {
  const { isAuthenticated } = useAuth();
  const productName = useProductName();
  return (
    <div className="landing">
      <header className="landing-header">
        <Logo />
        <nav aria-label="Sections" className="landing-nav">
          <a href="#features">Features</a>
          <a href="#pricing">Pricing</a>
          <a href="#testimonials">Testimonials</a>
        </nav>
        <div className="landing-auth">
          {isAuthenticated ? (
            <ButtonLink to={paths.dashboard}>Dashboard</ButtonLink>
          ) : (
            <>
              <ButtonLink to={paths.login} variant="ghost">
                Log in
              </ButtonLink>
              <ButtonLink to={paths.register}>Sign up</ButtonLink>
            </>
          )}
        </div>
      </header>

      <main>
        <section className="hero">
          <h1 className="hero-title">Move Amazon products to eBay on autopilot</h1>
          <p className="hero-text">
            {productName} lists, prices and protects your eBay store while you focus on selling.
          </p>
          <div className="actions center">
            <ButtonLink to={paths.register} size="lg">
              Start now
            </ButtonLink>
            <ButtonLink to={paths.login} size="lg" variant="outline">
              Log in
            </ButtonLink>
          </div>
        </section>

        <section id="features" className="landing-section" aria-labelledby="features-title">
          <h2 id="features-title" className="section-title center">
            Features
          </h2>
          <div className="grid-3">
            {FEATURES.map(({ icon: Icon, title, text }) => (
              <article key={title} className="card feature">
                <Icon size={28} aria-hidden className="feature-icon" />
                <h3>{title}</h3>
                <p className="muted">{text}</p>
              </article>
            ))}
          </div>
        </section>

        <section id="pricing" className="landing-section" aria-labelledby="pricing-title">
          <h2 id="pricing-title" className="section-title center">
            Pricing
          </h2>
          <PricingCard />
        </section>

        <section id="testimonials" className="landing-section" aria-labelledby="testimonials-title">
          <h2 id="testimonials-title" className="section-title center">
            Testimonials
          </h2>
          <div className="grid-3">
            {TESTIMONIALS.map((t) => (
              <figure key={t.name} className="card testimonial">
                <div className="stars" role="img" aria-label="5 out of 5 stars">
                  {Array.from({ length: 5 }, (_, i) => (
                    <Star key={i} size={16} aria-hidden fill="currentColor" />
                  ))}
                </div>
                <blockquote>{t.text}</blockquote>
                <figcaption>
                  <strong>{t.name}</strong> <span className="muted">{t.role}</span>
                </figcaption>
              </figure>
            ))}
          </div>
        </section>

        <section className="cta">
          <h2>Ready to grow your eBay business?</h2>
          <p>Join a community of successful sellers today.</p>
          <ButtonLink to={paths.register} size="lg" variant="secondary">
            Sign up now
          </ButtonLink>
        </section>
      </main>

      <footer className="landing-footer">
        <Logo size="small" />
        <nav aria-label="Footer" className="footer-nav">
          <Link to={paths.support}>Support</Link>
          <Link to={paths.contact}>Contact</Link>
          <Link to={paths.privacy}>Privacy</Link>
          <Link to={paths.terms}>Terms</Link>
        </nav>
        <p className="muted">© {new Date().getFullYear()} {productName}</p>
      </footer>
    </div>
  );
}
