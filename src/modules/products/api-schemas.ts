/** TypeBox schemas of the /api/products routes: they validate, serialise and document (/docs) the same shapes. */
import { Type } from 'typebox';
import { Offset, StringEnum } from '../../platform/http/schema-types.js';
import { DELIVERY_CELLS } from '../agents/index.js';

export const TAGS = ['products'];

const Timestamp = Type.String({ format: 'date-time' });
const Slug = Type.String({
  minLength: 1,
  maxLength: 50,
  pattern: '^[a-z0-9-]+$',
  description: 'Unique handle: 1–50 of a-z, 0-9 and -.',
});
const Name = Type.String({ minLength: 1, maxLength: 100 });
const Description = Type.String({ maxLength: 5000 });

const CellRouteBody = Type.Object(
  {
    team: StringEnum(DELIVERY_CELLS, { description: 'A delivery cell.' }),
    project_id: Type.String({
      format: 'uuid',
      description: 'The project this cell works in for the product.',
    }),
  },
  { additionalProperties: false },
);
const Cells = Type.Array(CellRouteBody, {
  maxItems: 10,
  description: 'Cell → project routing; at most one project per cell (409 `duplicate_cell`).',
});

export const CreateProductBody = Type.Object(
  {
    slug: Slug,
    name: Name,
    description: Type.Optional(Description),
    cells: Type.Optional(Cells),
  },
  { additionalProperties: false },
);

export const UpdateProductBody = Type.Object(
  {
    slug: Type.Optional(Slug),
    name: Type.Optional(Name),
    description: Type.Optional(Description),
    cells: Type.Optional(Cells),
  },
  {
    additionalProperties: false,
    description: 'Only the fields present change; `cells` replaces the whole routing.',
  },
);

export const ProductParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 100, description: 'Product UUID or slug.' }),
});

export const ListProductsQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100 })),
  offset: Type.Optional(Offset()),
});

export const ProductView = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    slug: Type.String(),
    name: Type.String(),
    description: Type.String(),
    cells: Type.Array(
      Type.Object({
        team: Type.String(),
        project_id: Type.String({ format: 'uuid' }),
        project_slug: Type.String(),
        project_name: Type.String(),
      }),
    ),
    cell_count: Type.Integer(),
    created_by: Type.String(),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { description: 'A product and the project each delivery cell works in for it.' },
);

export const ProductsList = Type.Object({
  products: Type.Array(ProductView),
  total: Type.Integer({ description: 'All products, before limit/offset.' }),
  limit: Type.Integer(),
  offset: Type.Integer(),
});
