import { useRotation } from '../hooks/use-rotation.ts';

const testimonials = [
  {
    quote:
      'Payments, bookings and my client list finally live in one place. I got hours back every week.',
    name: 'Maria G.',
    business: 'Strength coach, Austin, TX',
  },
  {
    quote: 'Our members sign up and pay from their phones, and I never chase an invoice anymore.',
    name: 'Derek L.',
    business: 'Gym owner, Columbus, OH',
  },
  {
    quote: 'Setting up my website and email newsletter took an afternoon, not a month.',
    name: 'Priya S.',
    business: 'Registered dietitian, Denver, CO',
  },
] as const;

/** spec §2 signup: the left panel — three five-star reviews, rotating about every 6 s. */
const TESTIMONIAL_ROTATION_MS = 6000;

export function TestimonialPanel() {
  const { index, setIndex, setPaused, rotating } = useRotation(
    testimonials.length,
    TESTIMONIAL_ROTATION_MS,
  );
  const current = testimonials[index] ?? testimonials[0];
  return (
    <aside
      className="auth-testimonials"
      aria-labelledby="auth-testimonials-title"
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
    >
      <h2 id="auth-testimonials-title" className="auth-testimonials__title">
        Trusted by small businesses across the US
      </h2>
      {/* Rotating content is not announced on every change (aria-live off while rotating). */}
      <figure className="auth-testimonial" aria-live={rotating ? 'off' : 'polite'}>
        <p className="auth-testimonial__stars" role="img" aria-label="Rated 5 out of 5 stars">
          ★★★★★
        </p>
        <blockquote className="auth-testimonial__quote">
          <p>{current.quote}</p>
        </blockquote>
        <figcaption className="auth-testimonial__author">
          <strong>{current.name}</strong> · {current.business}
        </figcaption>
      </figure>
      <div className="auth-testimonials__dots" role="group" aria-label="Choose a review">
        {testimonials.map((testimonial, position) => (
          <button
            key={testimonial.name}
            type="button"
            className="auth-testimonials__dot"
            aria-label={`Review ${position + 1} of ${testimonials.length}`}
            aria-pressed={position === index}
            onClick={() => setIndex(position)}
          />
        ))}
      </div>
    </aside>
  );
}
