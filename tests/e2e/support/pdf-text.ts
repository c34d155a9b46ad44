/** The text a PDF shows: one reader for API and browser tests. */
export { pdfText } from '../../helpers/pdf-text';
