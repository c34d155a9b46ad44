/**
 * The agency's brand at the top of a PDF page (the brand's look, for the privacy documents a caller
 * receives): the light logo with the agency's name beside it, or the name alone in the brand's
 * colour, then a rule in the primary colour. Draws only; the brand comes from pdf-brand.ts.
 */
import type PDFDocument from 'pdfkit';
import type { PdfBrand } from './monthly-pdf';

type Doc = InstanceType<typeof PDFDocument>;

const MUTED = '#475569';
/** The logo's height, in points; its width follows its aspect ratio. */
const LOGO_HEIGHT = 28;

export function drawBrandHeader(doc: Doc, brand: PdfBrand, margin: number): void {
  const width = doc.page.width - margin * 2;
  if (brand.logo) {
    const w = Math.min(width * 0.5, (brand.logo.width / Math.max(1, brand.logo.height)) * LOGO_HEIGHT);
    doc.image(brand.logo.png, margin, margin, { fit: [w, LOGO_HEIGHT] });
    // The name beside the logo: for the text layer (screen readers, copying) as much as the eye.
    doc
      .fillColor(MUTED)
      .font('Helvetica')
      .fontSize(10)
      .text(brand.name, margin + w + 12, margin + LOGO_HEIGHT / 2 - 5, {
        width: width - w - 12,
        lineBreak: false,
        ellipsis: true,
      });
    doc.y = margin + LOGO_HEIGHT + 8;
    doc.x = margin;
  } else {
    doc.fillColor(brand.primaryText).font('Helvetica-Bold').fontSize(11).text(brand.name, margin, margin);
  }
  doc
    .moveTo(margin, doc.y + 2)
    .lineTo(margin + width, doc.y + 2)
    .strokeColor(brand.primary)
    .lineWidth(2)
    .stroke();
  doc.y += 14;
  doc.x = margin;
}
