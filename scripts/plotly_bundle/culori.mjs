// What plotly.js's colour code (src/components/color/index.js) takes from culori, built from culori's
// tree-shakeable entry (culori/fn) with the colour spaces CSS can name, instead of the whole library
// (`require('culori')`, every space culori knows). build.mjs resolves plotly.js's `require('culori')` here.
import {
    modeA98,
    modeHsl,
    modeHsv,
    modeHwb,
    modeLab,
    modeLab65,
    modeLch,
    modeLch65,
    modeLrgb,
    modeOklab,
    modeOklch,
    modeP3,
    modeProphoto,
    modeRec2020,
    modeRgb,
    modeXyz50,
    modeXyz65,
    useMode,
} from 'culori/fn';

[
    modeA98, modeHsl, modeHsv, modeHwb, modeLab, modeLab65, modeLch, modeLch65, modeLrgb, modeOklab, modeOklch,
    modeP3, modeProphoto, modeRec2020, modeRgb, modeXyz50, modeXyz65,
].forEach(useMode);

export { converter, formatHex, formatRgb, wcagContrast, wcagLuminance } from 'culori/fn';
