/** Cents as the console shows money: "$1,234.50". */
import { formatMoney } from '../../../contract/format';

export const cents = (value: number) => formatMoney(value / 100);
