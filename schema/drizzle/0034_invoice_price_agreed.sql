-- An invoice's price agreed on an invitation below the product's (decision 0073: an imported
-- discount); the charge's re-totaling holds the invoice to it.
ALTER TABLE "invoices" ADD COLUMN "price_agreed" boolean DEFAULT false NOT NULL;
