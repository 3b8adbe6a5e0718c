/**
 * The skills as MCP resources: every SKILL.md listed in resources/list (name
 * and description from its front matter, `text/markdown`), and the resource
 * template of the references with completion of both of its variables.
 */
import { ResourceNotFoundError } from '../core/errors.js';
import type { IResourceData, IResourceTemplateInfo, TResourceContent } from '../core/types.js';
import { REFERENCES_DIR, SKILL_FILE } from './constants.js';
import type { SkillCatalog } from './skill-catalog.js';
import type { SkillFile } from './skill-reader.js';

function contentOf(uri: string, file: SkillFile): TResourceContent {
  return [file.text !== undefined ? { uri, mimeType: file.mimeType, text: file.text } : { uri, mimeType: file.mimeType, blob: file.bytes.toString('base64') }];
}

export function skillResources(catalog: SkillCatalog): IResourceData[] {
  return catalog.skills.map((skill) => {
    const uri = catalog.skillUri(skill.name);
    const file = skill.files[0] as SkillFile;
    return {
      uri,
      name: skill.name,
      description: skill.description,
      mimeType: file.mimeType,
      size: file.size,
      content: () => contentOf(uri, file),
    };
  });
}

const byPrefix = (values: string[], prefix: string) => values.filter((v) => v.startsWith(prefix));

export function skillReferenceTemplate(catalog: SkillCatalog): IResourceTemplateInfo {
  return {
    uriTemplate: catalog.referenceTemplate,
    name: 'skill_reference',
    title: 'Skill reference',
    description: `A file a skill hands over at a step: what ${catalog.root}<skill>/${SKILL_FILE} links to under ${REFERENCES_DIR}/. Read the one its body sends you to, at the step that sends you.`,
    mimeType: 'text/markdown',
    complete: {
      skill: (value) => byPrefix(catalog.skills.map((s) => s.name), value),
      reference: (value, context) => byPrefix(catalog.referenceNames(context.arguments?.skill || undefined), value),
    },
    read: (uri, variables) => {
      const file = catalog.file(variables.skill ?? '', `${REFERENCES_DIR}/${variables.reference ?? ''}`);
      if (!file) throw new ResourceNotFoundError(uri);
      return contentOf(uri, file);
    },
  };
}
