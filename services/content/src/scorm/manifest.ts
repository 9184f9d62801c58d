import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { SCORM_MSG, formatMessage, type ScormSco, type ScormVersion } from '@portal/contracts';
import { badRequest } from '@portal/service-kit';

/** What the portal reads of an imsmanifest.xml. */
export interface ScormManifest {
  version: ScormVersion;
  /** '1.2', '2004 2nd Edition', '2004 3rd Edition' or '2004 4th Edition'. */
  edition: string;
  /** The default organization's title (the manifest's identifier when it has none). */
  title: string;
  /** The launchable items in reading order, each with the titles of the items around it. */
  scos: ScormSco[];
  /** Every file the manifest names (resource and file hrefs, launch files), relative to the package root, decoded. */
  referenced: string[];
}

/** `<schemaversion>` as packages write it → the edition the portal names. */
const EDITIONS: Record<string, { version: ScormVersion; edition: string }> = {
  '1.2': { version: '1.2', edition: '1.2' },
  'cam 1.3': { version: '2004', edition: '2004 2nd Edition' },
  '2004 2nd edition': { version: '2004', edition: '2004 2nd Edition' },
  '2004 3rd edition': { version: '2004', edition: '2004 3rd Edition' },
  '2004 4th edition': { version: '2004', edition: '2004 4th Edition' },
};

const ARRAYS = new Set(['organization', 'item', 'resource', 'file', 'dependency']);

/** Namespace prefixes dropped (`adlcp:scormtype` → `scormtype`), the elements that repeat always arrays. */
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  // A manifest needs no entities beyond XML's own; none are expanded from a DOCTYPE.
  processEntities: false,
  isArray: (name, _path, _leaf, isAttribute) => !isAttribute && ARRAYS.has(name),
});

/** The root's attributes as written, prefixes kept: the namespaces tell 1.2 from 2004 when no schemaversion says. */
const rootParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  processEntities: false,
  stopNodes: ['*.*'],
});

type Node = Record<string, unknown>;
const asNode = (v: unknown): Node => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Node) : {});
const asList = (v: unknown): Node[] => (Array.isArray(v) ? v.map(asNode) : v === undefined ? [] : [asNode(v)]);
/** An element's text: a plain string, or `#text` when it also has attributes. */
const textOf = (v: unknown): string => {
  if (typeof v === 'string') return v.trim();
  if (Array.isArray(v)) return textOf(v[0]);
  const node = asNode(v);
  return typeof node['#text'] === 'string' ? node['#text'].trim() : '';
};
const attr = (node: Node, name: string): string =>
  typeof node[`@${name}`] === 'string' ? (node[`@${name}`] as string).trim() : '';

const invalid = (reason: string) => badRequest(formatMessage(SCORM_MSG.manifestInvalid, { reason }), 'file');

/** A manifest's relative address as a path in the zip: query and fragment off, %xx decoded, `./` dropped. */
export function hrefToPath(href: string): string {
  const bare = href.split(/[?#]/)[0] ?? '';
  let decoded: string;
  try {
    decoded = decodeURIComponent(bare);
  } catch {
    decoded = bare;
  }
  return decoded
    .replace(/\\/g, '/')
    .split('/')
    .filter((part) => part !== '' && part !== '.')
    .join('/');
}

/** A base (`xml:base`) and an href joined, as the manifest means them. */
const joinBase = (base: string, href: string) =>
  base && !/^[a-z][a-z0-9+.-]*:/i.test(href) ? `${base.replace(/\/?$/, '/')}${href}` : href;

/** An address outside the package (http:, https:, //host): not a file the zip must hold. */
const isExternal = (href: string) => /^([a-z][a-z0-9+.-]*:|\/\/)/i.test(href);

function editionOf(manifest: Node, rootAttributes: Node): { version: ScormVersion; edition: string } {
  const declared = textOf(asNode(manifest.metadata).schemaversion);
  if (declared) {
    const known = EDITIONS[declared.toLowerCase().replace(/\s+/g, ' ')];
    if (!known) throw badRequest(formatMessage(SCORM_MSG.versionUnsupported, { version: declared }), 'file');
    return known;
  }
  // No schemaversion: the ADL content-packaging namespace says which (the 2004 one is shared by its editions).
  const namespaces = Object.entries(rootAttributes)
    .filter(([k]) => k.startsWith('@xmlns'))
    .map(([, v]) => String(v).toLowerCase());
  if (namespaces.some((ns) => ns.includes('adlcp_rootv1p2'))) return EDITIONS['1.2'];
  if (namespaces.some((ns) => ns.includes('adlcp_v1p3'))) return EDITIONS['cam 1.3'];
  throw badRequest(formatMessage(SCORM_MSG.versionUnsupported, { version: 'не указана' }), 'file');
}

/**
 * Reads an imsmanifest.xml: its version and edition, the default organization's launchable items
 * and every file it refers to. Refuses (400, Russian) what cannot be read, an unsupported version and
 * a package without a single launchable item.
 */
export function parseManifest(xml: string): ScormManifest {
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw invalid(`${valid.err.msg} (строка ${valid.err.line})`);
  let doc: Node;
  let root: Node;
  try {
    doc = asNode(parser.parse(xml));
    root = asNode(rootParser.parse(xml));
  } catch (err) {
    throw invalid((err as Error).message);
  }
  const manifest = asNode(doc.manifest);
  if (!doc.manifest) throw invalid('нет элемента <manifest>');
  const { version, edition } = editionOf(manifest, asNode(root.manifest));

  const resourcesNode = asNode(manifest.resources);
  const resourcesBase = attr(resourcesNode, 'base');
  const resources = new Map<string, { href: string; files: string[] }>();
  const referenced = new Set<string>();
  for (const r of asList(resourcesNode.resource)) {
    const base = joinBase(resourcesBase, attr(r, 'base'));
    const href = attr(r, 'href');
    const files = asList(r.file)
      .map((f) => attr(f, 'href'))
      .filter((h) => h && !isExternal(h))
      .map((h) => joinBase(base, h));
    for (const f of files) referenced.add(hrefToPath(f));
    const full = href && !isExternal(href) ? joinBase(base, href) : href;
    if (full && !isExternal(full)) referenced.add(hrefToPath(full));
    resources.set(attr(r, 'identifier'), { href: full, files });
  }

  const organizationsNode = asNode(manifest.organizations);
  const organizations = asList(organizationsNode.organization);
  const chosen = organizations.find((o) => attr(o, 'identifier') === attr(organizationsNode, 'default')) ?? organizations[0];
  const title = (chosen && textOf(chosen.title)) || attr(manifest, 'identifier') || 'SCORM-пакет';

  const scos: ScormSco[] = [];
  const walk = (items: Node[], path: string[]) => {
    for (const item of items) {
      const itemTitle = textOf(item.title) || attr(item, 'identifier');
      const children = asList(item.item);
      const resource = resources.get(attr(item, 'identifierref'));
      if (resource?.href) {
        const parameters = attr(item, 'parameters');
        const launch = parameters
          ? `${resource.href}${parameters.startsWith('?') || parameters.startsWith('#') ? '' : resource.href.includes('?') ? '&' : '?'}${parameters}`
          : resource.href;
        scos.push({ id: attr(item, 'identifier'), title: itemTitle, launch, path });
      }
      if (children.length) walk(children, [...path, itemTitle]);
    }
  };
  walk(chosen ? asList(chosen.item) : [], []);
  if (!scos.length) throw badRequest(SCORM_MSG.noItems, 'file');
  return { version, edition, title, scos, referenced: [...referenced].filter(Boolean) };
}
